// Restart: a new service on the same data dir replays catalog and events into the same answers.
import { afterEach, describe, expect, test } from 'vitest';
import { ANY_POSITION, postEvents, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

const QUERIES = [
  'strategy=trending&limit=24',
  '',
  'productId=10',
  'productId=2&limit=24',
  'strategy=similar&productId=9',
  'collectionId=c1&limit=24',
  'strategy=collection-popular&collectionId=c2',
  'strategy=recently-viewed&sessionId=s1&limit=5',
  'strategy=recently-viewed&customerId=cust-1',
  'customerId=cust-1',
  'strategy=trending&sessionId=s2&limit=24',
  'strategy=trending&exclude=3,gid%3A%2F%2Fshopify%2FProduct%2F7',
];

/** Every query's answer (recommendations() fails the test on any status but 200). */
function answers(t: TestService): Promise<RecommendationBody[]> {
  return Promise.all(QUERIES.map((q) => recommendations(t, q)));
}

describe('restart', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  /** Products (loaded in id order), updated and deleted; events of every kind, some with timestamps. */
  async function arrange(t: TestService, order: 'id order' | 'arrival order'): Promise<void> {
    if (order === 'arrival order') {
      // An event before its product exists, and products loaded out of id order.
      await postEvents(t, [{ type: 'purchase', productId: '12', sessionId: 's0' }]);
      await putProducts(t, ['30', '9', '2', '12', '10', '1', '3'].map((id) => wireProduct(id, { collections: ['c1'] })));
    } else {
      await putProducts(t, ['1', '10', '12', '2', '3', '30'].map((id) => wireProduct(id, { collections: ['c1'] })));
      await putProducts(t, ['9'].map((id) => wireProduct(id, { collections: ['c1'] })));
      await postEvents(t, [{ type: 'purchase', productId: '12', sessionId: 's0' }]);
    }
    await putProducts(t, ['4', '5', '6', '7', '8'].map((id) => wireProduct(id, { collections: ['c2'] })));
    await putProducts(t, [wireProduct('99', { collections: ['c1', 'c2'] }), wireProduct('5', { title: 'Five v2', collections: ['c2'] })]);
    await postEvents(t, [
      { type: 'view', productId: '9', sessionId: 's1', timestamp: NOW - 60_000 },
      { type: 'add_to_cart', productId: '2', sessionId: 's1', customerId: 'cust-1' },
      { type: 'click', productId: '7', sessionId: 's1', customerId: 'cust-1' },
      { type: 'view', productId: '3', sessionId: 's1', timestamp: NOW - 3_600_000 },
      { type: 'save', productId: '6', sessionId: 's2' },
      { type: 'dismiss', productId: '2', sessionId: 's2' },
      { type: 'purchase', productId: '99', sessionId: 's3', timestamp: new Date(NOW - 86_400_000).toISOString() },
      { type: 'view', productId: '5', sessionId: 's1', customerId: 'cust-1' },
    ]);
    const del = await t.fetch('/api/products/30', { method: 'DELETE', key: t.shop.secretKey });
    expect(del.status).toBe(200);
  }

  test('When the service restarts on the same data dir, then every answer is the same', async () => {
    const first = await startTestService({ clock: () => NOW });
    started.push(first);
    await arrange(first, 'id order');
    const before = await answers(first);
    const productBefore = await (await first.fetch('/api/products/5', { key: first.shop.secretKey })).json();

    await first.stop();
    const second = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW });
    started.push(second);

    expect(second.service.replayed).toMatchObject({ products: 12, snapshots: 1, events: 0 });
    expect(await answers(second)).toEqual(before);
    expect(await (await second.fetch('/api/products/5', { key: second.shop.secretKey })).json()).toEqual(productBefore);
    expect((await second.fetch('/api/products/30', { key: second.shop.secretKey })).status).toBe(404);
  });

  test('When the service restarts from its snapshot and new shoppers send events, then Node warns of nothing (no deprecated Buffer())', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const first = await startTestService({ clock: () => NOW });
      started.push(first);
      await arrange(first, 'id order');
      await first.stop();
      const second = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW });
      started.push(second);
      expect(second.service.replayed).toMatchObject({ snapshots: 1 });

      // Restored tables are grown as new shoppers, customers and products appear.
      const kinds = ['view', 'click', 'add_to_cart', 'purchase', 'save', 'dismiss'] as const;
      await postEvents(second, Array.from({ length: 90 }, (_, i) => ({ type: kinds[i % kinds.length]!, productId: String(1 + (i % 12)), sessionId: `new-${i}`, customerId: `new-c${i}` })));
      await putProducts(second, Array.from({ length: 80 }, (_, i) => wireProduct(`n${i}`, { collections: ['c1'] })));
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });

  // Replay loads the catalog in LMDB key order before any event, unlike the live arrival order:
  // ties and unscored products are ordered by product id so that answers do not depend on it.
  test('When products arrived out of id order, then every answer is still the same after a restart', async () => {
    const first = await startTestService({ clock: () => NOW });
    started.push(first);
    await arrange(first, 'arrival order');
    const before = await answers(first);

    await first.stop();
    const second = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW });
    started.push(second);

    expect(await answers(second)).toEqual(before);
  });

  test('When the service restarts, then a repeated messageId is still a duplicate with the first eventId', async () => {
    const first = await startTestService({ clock: () => NOW });
    started.push(first);
    await putProducts(first, [wireProduct('1')]);
    const event = JSON.stringify({ type: 'purchase', productId: '1', sessionId: 's', messageId: 'survives-restart' });
    const ack = await (await first.fetch('/api/events', { method: 'POST', body: event })).json();
    await first.stop();

    const second = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW });
    started.push(second);
    const again = await (await second.fetch('/api/events', { method: 'POST', body: event })).json();
    expect(again).toEqual({ success: true, eventId: ack.eventId, duplicate: true, position: ANY_POSITION });
    expect(second.service.engines.get(second.shop.shopId).eventCount).toBe(1);
  });

  test('When the service restarts, then keys made at run time still work', async () => {
    const first = await startTestService({ clock: () => NOW });
    started.push(first);
    await first.service.shops.ensureShop('shop-r');
    const key = await first.service.shops.createKey('shop-r', 'public');
    await first.stop();

    const second = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW });
    started.push(second);
    expect((await second.fetch('/api/recommendations', { key })).status).toBe(200);
  });
});
