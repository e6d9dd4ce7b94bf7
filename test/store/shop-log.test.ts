// The LMDB shop log: the ShopLog contract (shop-log-contract.ts, which the JetStream log runs too),
// and what only a data dir's own layout has to say.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { checkLogLayout, openDatabases, type Databases } from '../../src/store/database.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { tempDataDir } from '../support/service.js';
import { describeShopLog } from './shop-log-contract.js';

describeShopLog('LmdbShopLog', async () => {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  return {
    log: new LmdbShopLog(dbs),
    dbs,
    async close() {
      await dbs.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('LmdbShopLog', () => {
  test('When a data dir holds events stored by id (a development layout), then it is refused with a message saying so', async () => {
    const other = tempDataDir();
    mkdirSync(path.join(other, 'db'), { recursive: true });
    const old = openDatabases(path.join(other, 'db'));
    try {
      expect(() => checkLogLayout(old)).not.toThrow();
      await old.events.put(['shop', 'evt_1'], { type: 'view', productId: 'p', sessionId: 's1', timestamp: 0 });
      expect(() => checkLogLayout(old)).toThrow(/1 events in the layout of a development version/);
    } finally {
      await old.root.close();
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('LmdbShopLog: platform order lines', () => {
  let dir = '';
  let dbs: Databases;
  let log: LmdbShopLog;
  beforeAll(() => {
    dir = tempDataDir();
    mkdirSync(path.join(dir, 'db'), { recursive: true });
    dbs = openDatabases(path.join(dir, 'db'));
    log = new LmdbShopLog(dbs);
  });
  afterAll(async () => {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const DAY = 86_400_000;
  const TTL = 7 * DAY;
  const purchase = (messageId: string): TrackedEvent => ({ type: 'purchase', productId: 'p', sessionId: 's', timestamp: 0, messageId });

  test('When a platform order line comes again after the 7-day window, then it is still a repeat until the retention, and pruned only after', async () => {
    const shopId = 'platform-lines';
    const t0 = Date.UTC(2026, 0, 1);
    const ids = ['shopify:100:1', 'woocommerce:7:9', 'order-7-line-9'];
    await log.appendEvents(shopId, ids.map((m, i) => ({ eventId: `evt_a${i}`, event: purchase(m) })), t0, t0 - TTL, 'secret');
    const later = t0 + 30 * DAY;
    const again = await log.appendEvents(shopId, ids.map((m, i) => ({ eventId: `evt_b${i}`, event: purchase(m) })), later, later - TTL, 'secret');
    // The platforms' lines are repeats; the merchant's own id of a month ago is not (its window passed).
    expect(again.duplicateOf).toEqual(['evt_a0', 'evt_a1', undefined]);
    // From a public key the same text is no platform's: its own namespace, the usual window.
    const publicOne = await log.appendEvents(shopId, [{ eventId: 'evt_c0', event: purchase('shopify:100:1') }], later, later - TTL, 'public');
    expect(publicOne.duplicateOf).toEqual([undefined]);
    await log.pruneDedup(later - TTL);
    expect(dbs.dedup.get([shopId, 's:shopify:100:1'])).toBeDefined();
    await log.pruneDedup(t0 + 400 * DAY + 1);
    expect(dbs.dedup.get([shopId, 's:shopify:100:1'])).toBeUndefined();
  });
});
