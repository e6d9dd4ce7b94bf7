// Recommendations for a cart (productIds, docs/api.md "Carts"): the answer over HTTP and the stream,
// its meta, the cache keyed on the set, filters and rules relative to the cart, and bad input.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { parseMetrics } from '../support/metrics-text.js';
import { ids, postEvents, putProducts, recommendations, startTestService, withoutRecId, wireProduct, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';

/** Orders of products bought together, each in a session of its own. */
function orders(baskets: readonly (readonly string[])[], prefix: string): Record<string, unknown>[] {
  return baskets.flatMap((basket, i) => basket.map((productId) => ({ type: 'purchase', productId, sessionId: `${prefix}-${i}`, metadata: { orderId: `${prefix}-${i}` } })));
}

const repeat = (basket: readonly string[], times: number) => Array.from({ length: times }, () => basket);

/**
 * Products 1-9; 1-3 by Acme, 4-6 by Globex, 7-9 by Initech. 7 is bought with 1 and with 4 (the
 * cart {1, 4} as a whole); 8 strongly with 1 alone, 9 strongly with 4 alone.
 */
async function seeded(): Promise<TestService> {
  const t = await startTestService();
  const vendor = (i: number) => (i <= 3 ? 'Acme' : i <= 6 ? 'Globex' : 'Initech');
  await putProducts(t, Array.from({ length: 9 }, (_, i) => wireProduct(String(i + 1), { vendor: vendor(i + 1), price: String(10 * (i + 1)) })));
  const events = orders([...repeat(['1', '7'], 20), ...repeat(['4', '7'], 20), ...repeat(['1', '8'], 30), ...repeat(['4', '9'], 30), ['2', '5'], ['3', '6']], 'o');
  for (let i = 0; i < events.length; i += 100) await postEvents(t, events.slice(i, i + 100));
  return t;
}

describe('recommendations for a cart', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await seeded();
  });
  afterAll(() => t.cleanup());

  test('When a cart is asked for, then the product that goes with the cart as a whole comes first, the cart never comes back, and meta says how many of its products the models knew', async () => {
    const body = await recommendations(t, 'strategy=bought-together&productIds=1,4,99&limit=4');
    expect(ids(body)[0]).toBe('7');
    expect(ids(body)).not.toContain('1');
    expect(ids(body)).not.toContain('4');
    expect(body.meta).toMatchObject({ strategy: 'bought-together', modelLevel: 2, cart: { products: 3, known: 2 } });
    // One product alone answers as it always did: its own strongest partner first, no cart meta.
    const one = await recommendations(t, 'strategy=bought-together&productId=1&limit=2');
    expect(ids(one)).toEqual(['8', '7']);
    expect(one.meta.cart).toBeUndefined();
  });

  test('When the same cart comes in another order, as gids or beside productId, then it is the same answer, served from the cache', async () => {
    const first = await recommendations(t, 'productIds=2,5,6');
    const hits = async () => parseMetrics(await (await t.fetch('/metrics', { key: t.shop.secretKey })).text()).get('pairwise_answer_cache_hits_total')!.value;
    const before = await hits();
    expect(await recommendations(t, 'productIds=6,2,5')).toEqual(first);
    expect(await recommendations(t, `productIds=${encodeURIComponent('gid://shopify/Product/5,gid://shopify/Product/2')}&productId=6`)).toEqual(first);
    expect(await recommendations(t, 'productId=5&productIds=2,6,2,')).toEqual(first);
    expect((await hits()) - before).toBe(3);
    expect(first.meta.strategy).toBe('bought-together');
  });

  test('When similar is asked for a cart, then its products never come back', async () => {
    const body = await recommendations(t, 'strategy=similar&productIds=1,2');
    expect(body.meta.strategy).toBe('similar');
    expect(ids(body)).not.toContain('1');
    expect(ids(body)).not.toContain('2');
  });

  test('When filters are relative to a cart, then same: keeps what shares a value with any of its products and different: what shares it with none', async () => {
    const same = await recommendations(t, `productIds=1,4&limit=24&filters=${encodeURIComponent('same:vendor')}`);
    expect(ids(same).sort()).toEqual(['2', '3', '5', '6']);
    const different = await recommendations(t, `productIds=1,4&limit=24&filters=${encodeURIComponent('different:vendor')}`);
    expect(ids(different).sort()).toEqual(['7', '8', '9']);
    const priced = await recommendations(t, `productIds=1,9&limit=24&filters=${encodeURIComponent('price:0.9x..2x')}`);
    expect(ids(priced).sort()).toEqual(['2']);
  });

  test('When a rule\'s when.context names a vendor, then it matches a cart holding one product of that vendor', async () => {
    const rule = { when: { context: 'vendor:Initech' }, then: { pin: [{ productId: '3', position: 1 }] } };
    const res = await t.fetch('/api/rules/initech-carts', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify(rule) });
    expect([200, 201]).toContain(res.status);
    try {
      expect(ids(await recommendations(t, 'productIds=1,7'))[0]).toBe('3');
      expect(ids(await recommendations(t, 'productIds=1,4'))[0]).not.toBe('3');
    } finally {
      await t.fetch('/api/rules/initech-carts', { method: 'DELETE', key: t.shop.secretKey });
    }
  });

  test('When a stream subscribes with query.productIds as a list, then it gets the GET answer for that cart', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    try {
      const reply = await client.request({ op: 'subscribe', ref: 'cart', query: { productIds: ['4', '1'], limit: 3 } });
      expect(withoutRecId({ products: reply.products, meta: reply.meta })).toEqual(await recommendations(t, 'productIds=1,4&limit=3'));
      const bad = await client.request({ op: 'subscribe', ref: 'bad', query: { productIds: Array.from({ length: 25 }, (_, i) => String(i)) } });
      expect(bad).toMatchObject({ op: 'error', ref: 'bad', error: { code: 'invalid_query' } });
    } finally {
      client.close();
    }
  });

  test.each([
    ['productIds=1,a%20b', 'invalid_query'],
    [`productIds=${Array.from({ length: 25 }, (_, i) => i + 1).join(',')}`, 'invalid_query'],
    ['productIds=1,gid://shopify/Collection/2', 'invalid_query'],
  ])('When the cart is bad (%s), then the answer is a problem with code %s at /productIds', async (query, code) => {
    await expectProblem(await t.fetch(`/api/recommendations?${query}`), 400, code, '/productIds');
  });
});

describe('a cart answer in real time', () => {
  test('When a purchase is acknowledged, then the next cart answer reflects it', async () => {
    const t = await seeded();
    try {
      const before = await recommendations(t, 'productIds=2,3&limit=2');
      expect(ids(before)).not.toContain('9');
      await postEvents(t, orders(repeat(['2', '3', '9'], 8), 'now'));
      expect(ids(await recommendations(t, 'productIds=2,3&limit=2'))[0]).toBe('9');
    } finally {
      await t.cleanup();
    }
  });
});
