// A customer's erasure names them and their sessions in the log only until a snapshot covers it: the
// housekeeper's round after the snapshot rewrites it without them ('erasure-done'). A process of the
// same data dir that had not applied the erasure yet (it lagged) meets the rewritten entry and
// restores that snapshot instead of applying an entry that no longer says whom to forget. Two
// processes' views of one data dir in this test process, on a real LMDB.
import { afterEach, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { customerModelState } from '../../src/engine/customer-state.js';
import type { Product } from '../../src/engine/product.js';
import { recommend } from '../../src/engine/recommend.js';
import { LogRetention } from '../../src/ingest/log-retention.js';
import { replay } from '../../src/ingest/replay.js';
import type { ShopEngines } from '../../src/engine/shop-engines.js';
import { SnapshotScheduler } from '../../src/ingest/snapshots.js';
import { LAST_POSITION, type Databases } from '../../src/store/database.js';
import { closeProcessViews, openProcessView } from '../support/process-view.js';

const DAY = 86_400_000;
const NOW = Date.parse('2025-03-01T00:00:00Z');
const SHOP = 'erasing-shop';
const CUSTOMER = 'cust-erased-4411';

/** One process's view of the data dir (test/support/process-view.ts), with the housekeeper's round: snapshots, then retention. */
function open(dir?: string) {
  const view = openProcessView(dir, 10);
  const housekeeping = async () => {
    await new SnapshotScheduler(view.engines, view.snapshotStore, () => NOW, () => {}, { logStart: (shopId) => view.log.start(shopId) }).takeAll();
    await new LogRetention(view.log, view.snapshotStore, 400 * DAY, () => NOW, () => {}).pruneAll();
  };
  return { ...view, housekeeping };
}

afterEach(closeProcessViews);

function product(i: number): Product {
  return { id: String(i), platform: 'shopify', title: `Item ${i}`, handle: `item-${i}`, image: null, price: '5.00', compareAtPrice: null, vendor: 'V', productType: null, tags: [], collections: ['c1'], available: true, updatedAt: NOW };
}

const view = (productId: number, sessionId: string, customerId?: string): TrackedEvent => ({ type: 'view', productId: String(productId), sessionId, timestamp: NOW - DAY, ...(customerId ? { customerId } : {}) });

/** Whether any stored byte of the shop's log entries spells `text`. */
function logSpells(dbs: Databases, text: string): boolean {
  const needle = Buffer.from(text);
  for (const key of dbs.log.getKeys({ start: [SHOP, 0], end: [SHOP, LAST_POSITION] })) if (dbs.log.getBinary(key)!.includes(needle)) return true;
  return false;
}

const recentlyViewed = (engines: ShopEngines, sessionId: string) =>
  recommend(engines.get(SHOP), { strategy: 'recently-viewed', limit: 5, exclude: [], sessionId }, NOW).items.filter((i) => i.strategy === 'recently-viewed').map((i) => i.product.id);

describe('an erasure’s names, once a snapshot covers it', () => {
  test('When the housekeeper has snapshotted an erasure, then its next round leaves no log entry naming the customer or their sessions, and a process that lagged restores the snapshot', async () => {
    const a = open();
    await a.catalog.upsert(SHOP, Array.from({ length: 8 }, (_, i) => product(i)), NOW - 2 * DAY);
    // Browsing before signing in, then signed in, on one session; another session of theirs; a stranger.
    await a.pipeline.ingest(SHOP, [view(1, 'sess-before-login'), view(2, 'sess-before-login')], NOW);
    await a.pipeline.ingest(SHOP, [view(3, 'sess-before-login', CUSTOMER), view(4, 'sess-phone', CUSTOMER), view(5, 'sess-stranger')], NOW);
    const b = open(a.root);
    replay(b.catalogStore, b.log, b.snapshotStore, b.engines);
    expect(recentlyViewed(b.engines, 'sess-before-login')).toEqual(['3', '2', '1']);

    // A erases (B does not hear of it), snapshots and runs the housekeeping round after it.
    const { events } = await a.customers.erase(SHOP, CUSTOMER, NOW);
    expect(events).toBe(4);
    expect(logSpells(a.dbs, CUSTOMER) && logSpells(a.dbs, 'sess-phone')).toBe(true); // named until a snapshot covers it
    await a.housekeeping();

    for (const name of [CUSTOMER, 'sess-before-login', 'sess-phone']) expect(logSpells(a.dbs, name), name).toBe(false);
    expect(logSpells(a.dbs, 'sess-stranger')).toBe(true);
    expect([...a.log.read(SHOP)].map((r) => r.change?.kind ?? r.event!.sessionId)).toEqual(['products', 'event-erased', 'event-erased', 'event-erased', 'event-erased', 'sess-stranger', 'erasure-done']);

    // B applies what it lacks: the entry no longer names whom to forget, so it restores A's snapshot.
    await b.applier.applyThrough(SHOP, b.log.head(SHOP, true));
    expect(b.engines.position(SHOP)).toBe(a.engines.position(SHOP));
    expect(customerModelState(b.engines.get(SHOP), CUSTOMER).recentlyViewed).toEqual([]);
    expect(recentlyViewed(b.engines, 'sess-before-login')).toEqual([]);
    expect(recentlyViewed(b.engines, 'sess-stranger')).toEqual(['5']);
  });

  test('When no snapshot covers an erasure yet, then the round leaves it naming whom it erased (a restart from an older snapshot replays it)', async () => {
    const a = open();
    await a.catalog.upsert(SHOP, [product(1)], NOW - 2 * DAY);
    await a.pipeline.ingest(SHOP, [view(1, 'sess-1', CUSTOMER)], NOW);
    await new SnapshotScheduler(a.engines, a.snapshotStore, () => NOW, () => {}).takeAll();
    await a.customers.erase(SHOP, CUSTOMER, NOW);
    await new LogRetention(a.log, a.snapshotStore, 400 * DAY, () => NOW, () => {}).pruneAll();
    expect(logSpells(a.dbs, CUSTOMER)).toBe(true);
    await a.housekeeping();
    expect(logSpells(a.dbs, CUSTOMER)).toBe(false);
  });
});
