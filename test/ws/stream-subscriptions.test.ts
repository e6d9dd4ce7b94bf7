// Live recommendations: subscribe answers at once like GET /api/recommendations, then a push
// whenever that list changes (≤ 1 per second per subscription, only on a real change).
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, recommendations, startTestService, withoutRecId, wireProduct, type TestService } from '../support/service.js';
import { productIds, sleep, StreamClient, type Message } from './stream-client.js';

const isPush = (sub: string) => (m: Message) => m.op === 'recommendations' && m.sub === sub && m.ref === undefined;

function purchases(productId: string, count: number): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({ type: 'purchase', productId, sessionId: `buyer-${productId}-${i}-${Math.random()}` }));
}

describe('stream subscriptions', () => {
  let t: TestService;
  const clients: StreamClient[] = [];
  const open = async (binary = false) => {
    const client = await StreamClient.open(t.url, t.shop.publicKey, { binary });
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    t = await startTestService();
    await putProducts(t, Array.from({ length: 6 }, (_, i) => wireProduct(String(i + 1))));
    // Trending: 1 > 2 > 3 (by purchases), the rest have no signal.
    await postEvents(t, [...purchases('1', 6), ...purchases('2', 4), ...purchases('3', 2)]);
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await t.cleanup();
  });

  test('When a client subscribes, then it gets the same list as GET /api/recommendations at once, with its ref and a sub id', async () => {
    const client = await open();

    const reply = await client.request({ op: 'subscribe', ref: 'r1', query: { strategy: 'trending', limit: 3 } });

    const get = await recommendations(t, 'strategy=trending&limit=3');
    expect(reply).toMatchObject({ op: 'recommendations', ref: 'r1', sub: expect.any(String) });
    expect(withoutRecId({ products: reply.products, meta: reply.meta })).toEqual(get);
  });

  test('When another connection’s purchase changes the list, then the subscriber gets a push equal to the new GET answer', async () => {
    const watcher = await open(true);
    const buyer = await open();
    const { sub } = await watcher.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 3 } });

    await buyer.request({ op: 'events', ref: 'buy', events: purchases('5', 5) });
    const push = await watcher.next(isPush(sub), 3_000);

    expect(push.__binary).toBe(true);
    expect(productIds(push)).toEqual(['1', '5', '2']);
    expect(withoutRecId({ products: push.products, meta: push.meta })).toEqual(await recommendations(t, 'strategy=trending&limit=3'));
  });

  test('When the catalog changes a listed product, then the subscriber gets a push with the new fields, and one without it when it goes away', async () => {
    const client = await open();
    const { sub } = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 3 } });

    await putProducts(t, [wireProduct('2', { title: 'Renamed Two', price: '12.50' })]);
    const renamed = await client.next(isPush(sub), 3_000);
    expect(renamed.products[1]).toMatchObject({ id: 'gid://shopify/Product/2', title: 'Renamed Two', price: '12.50' });

    const res = await t.fetch('/api/products/1', { method: 'DELETE', key: t.shop.secretKey });
    expect(res.status).toBe(200);
    const removed = await client.next(isPush(sub), 3_000);
    expect(productIds(removed)).not.toContain('1');
    expect(withoutRecId({ products: removed.products, meta: removed.meta })).toEqual(await recommendations(t, 'strategy=trending&limit=3'));
  });

  test('When the shop turns recency off, then a bought-together subscriber gets a push ranking pairs however old', async () => {
    const day = 86_400_000;
    const at = (ms: number) => new Date(ms).toISOString();
    // Product 4: bought with 5 in 10 orders 300 days ago, with 6 in 3 orders yesterday.
    const order = (session: string, partner: string, ms: number) => [
      { type: 'purchase', productId: '4', sessionId: session, timestamp: at(ms) },
      { type: 'purchase', productId: partner, sessionId: session, timestamp: at(ms) },
    ];
    const events = [];
    for (let i = 0; i < 10; i++) events.push(...order(`old-${i}`, '5', Date.now() - 300 * day));
    for (let i = 0; i < 3; i++) events.push(...order(`new-${i}`, '6', Date.now() - day));
    await postEvents(t, events, t.shop.secretKey);
    const client = await open();
    const reply = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'bought-together', productId: '4', limit: 2 } });
    expect(productIds(reply)).toEqual(['6', '5']);

    const res = await t.fetch('/api/shop/recency', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ recency: 'off' }) });
    expect(res.status).toBe(200);
    const push = await client.next(isPush(reply.sub), 3_000);
    expect(productIds(push)).toEqual(['5', '6']);
    expect(withoutRecId({ products: push.products, meta: push.meta })).toEqual(await recommendations(t, 'strategy=bought-together&productId=4&limit=2'));
  });

  test('When an event does not change the list, then no push comes', async () => {
    const client = await open();
    const { sub } = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 2 } });

    // Product 1 stays first and 2 second: scores move, ids and order do not.
    await client.request({ op: 'events', ref: 2, events: [...purchases('1', 2), { type: 'view', productId: '6', sessionId: 'v' }] });
    await sleep(1_300);

    expect(client.all(isPush(sub))).toEqual([]);
    // Control: a change now is pushed, so the silence above was not a broken channel.
    await client.request({ op: 'events', ref: 3, events: purchases('6', 4) });
    expect(productIds(await client.next(isPush(sub), 3_000))).toEqual(['1', '6']);
  });

  test('When the list changes every ~150 ms, then pushes come at most once a second and the last one is the final list', async () => {
    const client = await open();
    const query = { strategy: 'recently-viewed', sessionId: 'browsing', limit: 3 };
    const { sub } = await client.request({ op: 'subscribe', ref: 1, query });

    for (let product = 1; product <= 6; product++) {
      await client.request({ op: 'event', ref: `v${product}`, event: { type: 'view', productId: String(product), sessionId: 'browsing' } });
      await sleep(150);
    }
    const final = await recommendations(t, 'strategy=recently-viewed&sessionId=browsing&limit=3');
    await sleep(1_200); // the trailing push

    const pushes = client.all(isPush(sub));
    const times = pushes.map((m) => m.__at as number);
    expect(pushes.length).toBeGreaterThanOrEqual(2);
    expect(pushes.length).toBeLessThanOrEqual(3);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThan(900);
    expect(productIds(pushes.at(-1)!)).toEqual(['6', '5', '4']);
    expect(productIds(pushes.at(-1)!)).toEqual(productIds(final));
  });

  test('When two connections subscribe to the same query, then they share one topic: same sub id, one computation per change', async () => {
    const a = await open();
    const b = await open();
    const query = { strategy: 'trending', limit: 2 };
    const subA = (await a.request({ op: 'subscribe', ref: 1, query })).sub;
    const subB = (await b.request({ op: 'subscribe', ref: 1, query: { limit: '2', strategy: 'trending' } })).sub;
    const before = t.service.stream.stats();

    await postEvents(t, purchases('4', 10));
    const [pushA, pushB] = await Promise.all([a.next(isPush(subA), 3_000), b.next(isPush(subB), 3_000)]);

    expect(subB).toBe(subA);
    expect(before.topics).toBe(1);
    expect(t.service.stream.stats().pushes - before.pushes).toBe(1);
    expect(productIds(pushA)).toEqual(['4', '1']);
    expect(pushB.products).toEqual(pushA.products);
  });

  test('When a client unsubscribes, then it gets no more pushes for that subscription', async () => {
    const client = await open();
    const { sub } = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 2 } });

    client.send({ op: 'unsubscribe', sub });
    await client.request({ op: 'ping', ref: 'after' }); // messages are handled in order
    await postEvents(t, purchases('4', 10));
    await sleep(300);

    expect(client.all(isPush(sub))).toEqual([]);
    expect(t.service.stream.stats().topics).toBe(0);
    expect(await client.request({ op: 'unsubscribe', ref: 'again', sub })).toMatchObject({ op: 'error', ref: 'again', error: { code: 'not_found' } });
  });

  test('When the subscribe query is invalid, then the error code and field errors are those of GET /api/recommendations', async () => {
    const client = await open();
    const cases: [Record<string, unknown>, string][] = [
      [{ limit: 99 }, 'limit=99'],
      [{ strategy: 'magic' }, 'strategy=magic'],
      [{ strategy: 'bought-together' }, 'strategy=bought-together'],
      [{ exclude: ['1', 'gid://x'] }, 'exclude=1,gid://x'],
    ];

    for (const [query, queryString] of cases) {
      const reply = await client.request({ op: 'subscribe', ref: queryString, query });
      const problem = await t.fetch(`/api/recommendations?${queryString}`).then((r) => r.json());

      expect(reply.op).toBe('error');
      expect(reply.error).toEqual({ code: problem.code, detail: problem.detail, errors: problem.errors });
    }
  });
});
