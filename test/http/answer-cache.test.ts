// The answer cache through the real server: a repeated request is served from the cache, and for every
// strategy one acknowledged event changes the very next answer. A second service with the cache off
// gets the same catalog and events; both must answer byte for byte alike after every step.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { customerToken, ids, withoutRecId, newShop, postEvents, putProducts, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

let cached: TestService;
let uncached: TestService;
/** One shop (keys, signing secret) for both services: the same customer tokens work on each. */
const shop = newShop();

async function both(step: (t: TestService) => Promise<unknown>): Promise<void> {
  await step(cached);
  await step(uncached);
}

/** The body from the cached service, after checking that the uncached one answers the same bytes. */
async function answer(query: string): Promise<RecommendationBody> {
  // Each delivery has its own recId: the bytes before it must be the same.
  const [a, b] = await Promise.all([cached, uncached].map(async (t) => (await t.fetch(`/api/recommendations?${query}`)).text()));
  const recId = /,"recId":"rec_[a-z0-9_]+"\}\}$/;
  expect(a).toMatch(recId);
  expect(a!.replace(recId, '')).toBe(b!.replace(recId, ''));
  return withoutRecId(JSON.parse(a!) as RecommendationBody);
}

async function cacheHits(): Promise<number> {
  const text = await (await cached.fetch('/metrics', { key: cached.shop.secretKey })).text();
  return Number(/^pairwise_answer_cache_hits_total (\d+)$/m.exec(text)![1]);
}

const event = (type: string, productId: string, extra: Record<string, unknown> = {}) => ({ type, productId, sessionId: `s-${productId}-${type}`, ...extra });

beforeAll(async () => {
  cached = await startTestService({ shop, clock: () => NOW });
  uncached = await startTestService({ shop, clock: () => NOW, env: { PAIRWISE_ANSWER_CACHE_MB: '0' } });
  // Distinct vendors and titles: content similarity stays out of the similar cases below.
  const products = ['1', '2', '3', '4', '5', '6'].map((id) => wireProduct(id, { vendor: `V${id}`, title: `T${id}`, collections: Number(id) <= 3 ? ['c1'] : ['c2'] }));
  await both((t) => putProducts(t, products));
}, 60_000);

afterAll(async () => {
  await cached?.cleanup();
  await uncached?.cleanup();
});

/** Asks twice (the second from the cache), posts `change`, asks again: returns the answers before and after. */
async function around(query: string, change: Record<string, unknown>[]): Promise<[RecommendationBody, RecommendationBody]> {
  const before = await answer(query);
  const hits = await cacheHits();
  expect(await answer(query)).toEqual(before);
  expect(await cacheHits()).toBe(hits + 1);
  await both((t) => postEvents(t, change));
  return [before, await answer(query)];
}

describe('answer cache', () => {
  test('trending: a purchase moves the product up at once', async () => {
    await both((t) => postEvents(t, [event('purchase', '1'), event('purchase', '1'), event('view', '2')]));
    const [before, after] = await around('strategy=trending&limit=2', [event('purchase', '3')]);
    expect(ids(before)).toEqual(['1', '2']);
    expect(ids(after)).toEqual(['1', '3']);
  });

  test('collection-popular: a purchase of a member moves it up at once', async () => {
    const [before, after] = await around('strategy=collection-popular&collectionId=c1&limit=2', [event('purchase', '2'), event('purchase', '2')]);
    expect(ids(before)).toEqual(['1', '3']);
    expect(ids(after)).toEqual(['2', '1']);
  });

  test('bought-together: an item added to an open order pairs at once', async () => {
    const order = (productId: string, orderId: string) => ({ ...event('purchase', productId), sessionId: `s-${orderId}`, metadata: { orderId } });
    await both((t) => postEvents(t, [order('4', 'o1'), order('5', 'o1'), order('4', 'o2')]));
    const [before, after] = await around('strategy=bought-together&productId=4&limit=2', [order('6', 'o2')]);
    expect(ids(before)[0]).toBe('5');
    expect(before.products[1]!.strategy).not.toBe('bought-together');
    expect(ids(after)).toEqual(['5', '6']);
    expect(after.products.map((p) => p.strategy)).toEqual(['bought-together', 'bought-together']);
  });

  test('similar: a product viewed in the same session joins at once', async () => {
    const view = (productId: string, sessionId: string) => ({ type: 'view', productId, sessionId });
    await both((t) => postEvents(t, [view('1', 'sv1'), view('5', 'sv1'), view('1', 'sv2')]));
    const [before, after] = await around('strategy=similar&productId=1&limit=2', [view('6', 'sv2')]);
    expect(ids(before)[0]).toBe('5');
    expect(ids(after)).toEqual(['5', '6']);
    expect(after.products.map((p) => p.strategy)).toEqual(['similar', 'similar']);
  });

  test('personalized: the shopper\'s new interest changes the answer at once', async () => {
    // Shopper histories pair 3 with 1 and 6 with 4; the shopper viewed 1 only, then views 4.
    const view = (productId: string, customerId: string) => ({ type: 'view', productId, sessionId: `s-${customerId}`, customerId, customerToken: customerToken(shop, customerId, NOW) });
    await both((t) => postEvents(t, [view('1', 'h1'), view('3', 'h1'), view('4', 'h2'), view('6', 'h2'), view('1', 'me')]));
    const [before, after] = await around(`strategy=personalized&customerToken=${customerToken(shop, 'me', NOW)}&limit=1`, [view('4', 'me'), view('4', 'me'), view('4', 'me')]);
    expect(ids(before)).toEqual(['3']);
    expect(ids(after)).toEqual(['6']);
  });

  test('recently-viewed: a view comes first at once', async () => {
    const view = (productId: string) => ({ type: 'view', productId, sessionId: 'rv' });
    await both((t) => postEvents(t, [view('2')]));
    const [before, after] = await around('strategy=recently-viewed&sessionId=rv&limit=1', [view('5')]);
    expect(ids(before)).toEqual(['2']);
    expect(ids(after)).toEqual(['5']);
  });

  test('auto with a shopper: a dismissal hides the product at once', async () => {
    const shown = ids(await answer('sessionId=rv&limit=1'))[0]!;
    const [before, after] = await around('sessionId=rv&limit=1', [{ type: 'dismiss', productId: shown, sessionId: 'rv' }]);
    expect(ids(before)).toEqual([shown]);
    expect(ids(after)).not.toContain(shown);
  });

  test('a catalog change (the product becomes unavailable) changes the answer at once', async () => {
    const before = await answer('strategy=trending&limit=1');
    expect(ids(before)).toEqual(['1']);
    await both((t) => putProducts(t, [wireProduct('1', { vendor: 'V1', title: 'T1', available: false })]));
    expect(ids(await answer('strategy=trending&limit=1'))).not.toContain('1');
  });
});
