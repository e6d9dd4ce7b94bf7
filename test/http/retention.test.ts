// PAIRWISE_RETENTION_DAYS against the real server: log entries older than the retention that a
// snapshot covers are dropped from LMDB, the answers stay as they were, and a restart (which
// restores the snapshot and replays what the log still holds) answers the same again.
import { afterEach, describe, expect, test } from 'vitest';
import { LAST_POSITION } from '../../src/store/database.js';
import { postEvents, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';

const DAY = 86_400_000;
const NOW = Date.parse('2025-06-01T12:00:00Z');

const QUERIES = [
  'strategy=trending&limit=12',
  'productId=1&limit=12',
  'strategy=bought-together&productId=2',
  'customerId=cust-old&limit=12',
  'strategy=recently-viewed&customerId=cust-old',
  'strategy=recently-viewed&sessionId=s-old-1',
  'customerId=cust-new&limit=12',
  'collectionId=c1&limit=12',
];

function answers(t: TestService): Promise<RecommendationBody[]> {
  return Promise.all(QUERIES.map((q) => recommendations(t, q)));
}

/** The shop's raw log in LMDB: each entry's first position, in key order. */
function logKeys(t: TestService): number[] {
  return [...t.service.dbs.log.getKeys({ start: [t.shop.shopId, 0], end: [t.shop.shopId, LAST_POSITION] })].map((key) => key[1]);
}

async function metric(t: TestService, name: string): Promise<number> {
  const text = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no ${name} in /metrics`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Events of one shopper, `count` of them, `at` a time (epoch ms), around products 1-6. */
function shopperEvents(sessionId: string, customerId: string | undefined, at: number, count: number): Record<string, unknown>[] {
  const types = ['view', 'click', 'add_to_cart', 'purchase'];
  return Array.from({ length: count }, (_, k) => ({
    type: types[k % types.length],
    productId: String(((k * 5 + sessionId.length) % 6) + 1),
    sessionId,
    ...(customerId === undefined ? {} : { customerId }),
    ...(types[k % types.length] === 'purchase' ? { metadata: { orderId: `${sessionId}-o${Math.floor(k / 4)}` } } : {}),
    timestamp: new Date(at + k * 60_000).toISOString(),
  }));
}

describe('retention', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test('When a snapshot covers events backdated past a 7-day retention, then the raw LMDB log drops them, the answers stay the same, and so they do after a restart', async () => {
    // Arrange: the shop and its catalog made 30 days ago; a month-old customer; events sent today
    // but backdated 10 days (an import); then today's events.
    let now = NOW - 30 * DAY;
    const clock = () => now;
    const env = { PAIRWISE_RETENTION_DAYS: '7' };
    const t = await startTestService({ clock, env });
    started.push(t);
    await putProducts(t, [1, 2, 3, 4, 5, 6].map((i) => wireProduct(String(i), { collections: [i % 2 ? 'c1' : 'c2'] })));
    // The secret key may name a customer without a token.
    await postEvents(t, shopperEvents('s-old-1', 'cust-old', now, 12), t.shop.secretKey);
    now = NOW;
    await postEvents(t, [...shopperEvents('s-old-2', 'cust-old', NOW - 10 * DAY, 10), ...shopperEvents('s-import', undefined, NOW - 9 * DAY, 20)], t.shop.secretKey);
    await postEvents(t, [...shopperEvents('s-new', 'cust-new', NOW - 3_600_000, 8), ...shopperEvents('s-now', undefined, NOW - 60_000, 6)], t.shop.secretKey);
    const before = await answers(t);
    // cust-old's history is only in the events to be dropped: the answers that show it must keep it.
    expect(before[4]!.products.length).toBeGreaterThan(0);
    expect(before[5]!.products.length).toBeGreaterThan(0);
    const keysBefore = logKeys(t);
    const head = t.service.shopLog.head(t.shop.shopId);

    // Act
    const dropped = await t.service.pruneLog();

    // Assert: every entry older than 7 days is gone from LMDB, today's are all there, in one run up to the head
    const keysAfter = logKeys(t);
    expect(dropped).toBeGreaterThan(0);
    expect(keysAfter.length).toBeLessThan(keysBefore.length);
    const left = storedEvents(t.service.dbs, t.shop.shopId);
    expect(new Set(left.map((e) => e.event.sessionId))).toEqual(new Set(['s-new', 's-now']));
    expect(left.every((e) => e.event.timestamp >= NOW - 7 * DAY)).toBe(true);
    expect(left.map((e) => e.position)).toEqual(Array.from({ length: 14 }, (_, k) => head - 13 + k));
    expect(t.service.shopLog.head(t.shop.shopId)).toBe(head);
    expect(await metric(t, 'pairwise_log_first_position')).toBe(keysAfter[0]);
    expect(await metric(t, 'pairwise_log_retained_positions')).toBe(head - keysAfter[0]! + 1);
    expect(await metric(t, 'pairwise_log_entries')).toBe(keysAfter.length);
    // The customer index keeps no row of a dropped event: cust-old's are all gone, cust-new's 8 stay.
    const indexed = [...t.service.dbs.customerEvents.getKeys({ start: [t.shop.shopId, '', 0], end: [t.shop.shopId, '\uffff', 0] })].map((key) => key[1]);
    expect(indexed).toEqual(Array.from({ length: 8 }, () => 'cust-new'));
    const [file, used, logBytes] = [await metric(t, 'pairwise_lmdb_file_bytes'), await metric(t, 'pairwise_lmdb_used_bytes'), await metric(t, 'pairwise_lmdb_log_bytes')];
    expect(logBytes).toBeGreaterThan(0);
    expect(used).toBeGreaterThan(logBytes);
    expect(file).toBeGreaterThanOrEqual(used);
    expect(await answers(t)).toEqual(before);

    // A second prune drops nothing more: what is left is within the retention.
    expect(await t.service.pruneLog()).toBe(0);

    // After a restart: the snapshot and the log that is left give the same answers, and writes go on at the next position.
    await t.stop();
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock, env });
    started.push(again);
    expect(again.service.replayed).toMatchObject({ snapshots: 1, events: 0 });
    expect(await answers(again)).toEqual(before);
    expect(logKeys(again)).toEqual(keysAfter);
    const ack = await again.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '3', sessionId: 's-after' }) });
    expect(ack.status).toBe(200);
    expect(again.service.shopLog.head(again.shop.shopId)).toBe(head + 1);
    expect(again.service.engines.position(again.shop.shopId)).toBe(head + 1);
  });

  test('When PAIRWISE_RETENTION_DAYS is not a whole number of days from 1, then the service does not start', async () => {
    for (const value of ['0', '-1', '1.5', 'forever']) {
      await expect(startTestService({ env: { PAIRWISE_RETENTION_DAYS: value } })).rejects.toThrow(/PAIRWISE_RETENTION_DAYS/);
    }
  });
});
