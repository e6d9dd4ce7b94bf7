// The log's retention at the store and ingest layers, on a real LMDB: pruneLog drops exactly the
// prefix of entries that a snapshot covers and that are older than the retention, the log stays
// one run of positions, and a process whose models lack entries pruned since restores them from
// the snapshot on its next apply instead of taking the pruned prefix for a gap.
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import type { Product } from '../../src/engine/product.js';
import { recommend } from '../../src/engine/recommend.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { STRATEGIES } from '../../src/engine/strategy.js';
import { LogRetention } from '../../src/ingest/log-retention.js';
import { replay } from '../../src/ingest/replay.js';
import { SnapshotScheduler } from '../../src/ingest/snapshots.js';
import { LAST_POSITION } from '../../src/store/database.js';
import { pruneLog } from '../../src/store/log-retention.js';
import type { LmdbShopLog, LogRecord } from '../../src/store/shop-log.js';
import { closeProcessView, closeProcessViews, openProcessView } from '../support/process-view.js';

const DAY = 86_400_000;
const NOW = Date.parse('2025-03-01T00:00:00Z');
const SHOP = 'kept-shop';
/** One process's view of the data dir (test/support/process-view.ts), catching up 10 events a turn. */
const open = (dir?: string) => openProcessView(dir, 10);

afterEach(closeProcessViews);

function product(i: number): Product {
  return {
    id: String(i), platform: 'shopify', title: `Item ${i % 7} thing`, handle: `item-${i}`, image: null, price: `${5 + (i % 5)}.00`,
    compareAtPrice: null, vendor: `V${i % 3}`, productType: null, tags: [`t${i % 4}`], collections: [`c${i % 3}`], available: true, updatedAt: NOW,
  };
}

/** Mixed events over 30 products and 12 shoppers, an hour apart from `at`. */
function events(from: number, count: number, at: number): TrackedEvent[] {
  const types = ['view', 'click', 'add_to_cart', 'purchase', 'save'] as const;
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const shopper = i % 12;
    return {
      type: types[(i * 7) % types.length]!,
      productId: String((i * 11) % 30),
      sessionId: `s${shopper}`,
      ...(shopper % 2 === 0 ? { customerId: `c${shopper}` } : {}),
      metadata: { orderId: `o${Math.floor(i / 4)}` },
      timestamp: at + k * 3_600_000,
    };
  });
}

function answers(engine: ShopEngine): unknown[] {
  const out: unknown[] = [];
  for (const strategy of STRATEGIES) {
    for (const ctx of [{ productId: '11' }, { collectionId: 'c1' }, { customerId: 'c2', sessionId: 's2' }, { sessionId: 's3' }]) {
      const result = recommend(engine, { strategy, limit: 12, exclude: [], ...ctx }, NOW);
      out.push([result.strategy, result.modelLevel, result.items.map((i) => [i.product.id, i.strategy, i.score])]);
    }
  }
  return out;
}

/** The shop's log as read back: each position once, in order. */
function positions(log: LmdbShopLog): number[] {
  return [...log.read(SHOP)].map((r: LogRecord) => r.position);
}

describe('log retention', () => {
  test('When another process pruned entries this one has not applied, then its next apply restores the snapshot and its models end where the other process\'s are', async () => {
    // Arrange: process A holds the catalog and 100 old events; B (same data dir) replayed them.
    const a = open();
    await a.catalog.upsert(SHOP, Array.from({ length: 30 }, (_, i) => product(i)), NOW - 60 * DAY);
    for (let i = 0; i < 100; i += 25) await a.pipeline.ingest(SHOP, events(i, 25, NOW - 40 * DAY + i * 3_600_000), NOW);
    const b = open(a.root);
    replay(b.catalogStore, b.log, b.snapshotStore, b.engines);
    expect(b.engines.position(SHOP)).toBe(a.engines.position(SHOP));
    // A goes on (B does not hear of it), snapshots, and prunes everything older than 7 days it covers.
    for (let i = 100; i < 300; i += 50) await a.pipeline.ingest(SHOP, events(i, 50, NOW - 30 * DAY + i * 3_600_000), NOW);
    await new SnapshotScheduler(a.engines, a.snapshotStore, () => NOW, () => {}, { logStart: (shopId) => a.log.start(shopId) }).takeAll();
    const head = a.log.head(SHOP);
    expect(await new LogRetention(a.log, a.snapshotStore, 7 * DAY, () => NOW, () => {}).pruneAll()).toBe(head);
    expect(a.log.start(SHOP)).toBe(head + 1);
    expect([...a.dbs.log.getKeys({ start: [SHOP, 0], end: [SHOP, LAST_POSITION] })]).toEqual([]);
    // A's next write: B must apply the 200 events it lacks, which the log no longer holds, then this one.
    await a.pipeline.ingest(SHOP, events(300, 20, NOW - 2 * DAY), NOW);
    expect(positions(a.log)).toEqual(Array.from({ length: 20 }, (_, k) => head + 1 + k));

    // Act
    await b.applier.applyThrough(SHOP, b.log.head(SHOP, true));

    // Assert
    expect(b.engines.position(SHOP)).toBe(head + 20);
    expect(b.engines.get(SHOP).eventCount).toBe(320);
    expect(answers(b.engines.get(SHOP))).toEqual(answers(a.engines.get(SHOP)));
    // And B's own writes go on from there.
    await b.pipeline.ingest(SHOP, events(320, 5, NOW - DAY), NOW);
    await a.applier.applyThrough(SHOP, a.log.head(SHOP, true));
    expect(answers(b.engines.get(SHOP))).toEqual(answers(a.engines.get(SHOP)));
  });

  test('When a snapshot would stand for models behind the log\'s start, then none is taken', async () => {
    const a = open();
    await a.pipeline.ingest(SHOP, events(0, 10, NOW - 20 * DAY), NOW);
    await new SnapshotScheduler(a.engines, a.snapshotStore, () => NOW, () => {}).takeAll();
    const b = open(a.root);
    await pruneLog(a.dbs, SHOP, a.snapshotStore.position(SHOP)!, NOW - DAY);
    await a.pipeline.ingest(SHOP, events(10, 10, NOW - 20 * DAY), NOW);
    await new SnapshotScheduler(a.engines, a.snapshotStore, () => NOW, () => {}).takeAll();
    await pruneLog(a.dbs, SHOP, a.snapshotStore.position(SHOP)!, NOW - DAY);
    // B's models are at 0, behind the log's start (21): its snapshot would go back past what the log dropped.
    expect(b.log.start(SHOP, true)).toBe(21);
    expect(await new SnapshotScheduler(b.engines, b.snapshotStore, () => NOW, () => {}, { logStart: (shopId) => b.log.start(shopId) }).takeAll()).toBe(0);
    expect(b.snapshotStore.position(SHOP)).toBe(20);
    // Nor does the writer store one that reaches it (a process that took the housekeeping lease meanwhile).
    const behind = { position: 5, takenAt: NOW, state: b.engines.get(SHOP).snapshot() };
    await expect(b.snapshotStore.put(SHOP, behind)).rejects.toThrow(/behind the log, which starts at 21/);
    expect(b.snapshotStore.position(SHOP)).toBe(20);
    expect(b.snapshotStore.get(SHOP)?.position).toBe(20);
  });

  /** An entry to append: a batch of events with these times, or a change at this time. */
  const entryArb = fc.oneof(
    fc.record({ times: fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 4 }) }),
    fc.record({ at: fc.integer({ min: 0, max: 20 }) }),
  );

  test('When entries of any age and size are pruned through any position (and the latest snapshot\'s) before any time, then exactly the longest prefix of covered, older entries goes, and the log reads on from its new start without a gap', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(entryArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 40 }), fc.option(fc.integer({ min: 0, max: 40 })), fc.integer({ min: 0, max: 21 }), async (entries, asked, snapshotAt, beforeDay) => {
        const a = open();
        // The snapshot as another process may have replaced it since `asked` was read.
        if (snapshotAt !== null) await a.dbs.snapshotPositions.put(SHOP, snapshotAt);
        const through = Math.min(asked, snapshotAt ?? asked);
        const ids = (n: number) => Array.from({ length: n }, () => ({ eventId: `evt_${Math.random().toString(36).slice(2)}` }));
        // Reference: each entry's positions and time, and the prefix that must go.
        const spans: { first: number; last: number; time: number }[] = [];
        for (const entry of entries) {
          const first = a.log.head(SHOP) + 1;
          if ('times' in entry) {
            const batch = entry.times.map((day, k) => ({ ...ids(1)[0]!, event: { type: 'view' as const, productId: '1', sessionId: `s${k}`, timestamp: NOW - 30 * DAY + day * DAY } }));
            await a.log.appendEvents(SHOP, batch, NOW, 0);
            spans.push({ first, last: first + batch.length - 1, time: NOW - 30 * DAY + Math.max(...entry.times) * DAY });
          } else {
            await a.log.append(SHOP, { kind: 'put-products', products: [product(0)] }, NOW - 30 * DAY + entry.at * DAY);
            spans.push({ first, last: first, time: NOW - 30 * DAY + entry.at * DAY });
          }
        }
        const before = NOW - 30 * DAY + beforeDay * DAY;
        let kept = 0;
        while (kept < spans.length && spans[kept]!.last <= through && spans[kept]!.time < before) kept++;
        const start = kept === 0 ? 1 : spans[kept - 1]!.last + 1;
        const head = a.log.head(SHOP);
        const records = [...a.log.read(SHOP)];

        const pruned = await pruneLog(a.dbs, SHOP, asked, before, 3);

        expect(pruned).toEqual({ entries: kept, positions: start - 1, start });
        expect(a.log.start(SHOP)).toBe(start);
        expect([...a.dbs.log.getKeys({ start: [SHOP, 0], end: [SHOP, LAST_POSITION] })].map((k) => k[1])).toEqual(spans.slice(kept).map((s) => s.first));
        expect([...a.log.read(SHOP)]).toEqual(records.slice(start - 1));
        expect([...a.log.read(SHOP, start - 1)]).toEqual(records.slice(start - 1));
        expect(a.log.head(SHOP)).toBe(head);
        await closeProcessView(a.dbs);
      }),
      { numRuns: 40 },
    );
  });
});
