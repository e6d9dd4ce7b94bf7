// GET /api/recommendations contract (docs/api.md): limits, item shape, what is never returned,
// the auto strategy, backfill labels, collection scope, recently-viewed and read-your-writes.
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { customerToken, ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { expectedFreshScore, wireScore } from '../support/trending.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const GID = /^gid:\/\/shopify\/Product\/[0-9]+$/;

/** A storefront's proof that it acts as this customer (a public key's customerId counts only with one). */
const as = (t: TestService, customerId: string) => `customerId=${customerId}&customerToken=${customerToken(t.shop, customerId, NOW)}`;

/**
 * 30 products: 1-10 in c1, 11-20 in c2, 21-30 in c3, plus 31 in c1 but unavailable.
 * Trending (all events at NOW, so each score is expectedFreshScore of the weighted count, which
 * orders like the count): 31 = 18 (hidden), 5 = 12, 15 = 6, 25 = 4, 2 = 2, 3 = 1; every other
 * product 0, in product id order.
 */
async function seeded(): Promise<TestService> {
  const t = await startTestService({ clock: () => NOW });
  const products = Array.from({ length: 30 }, (_, i) => wireProduct(String(i + 1), { collections: [`c${Math.floor(i / 10) + 1}`] }));
  products.push(wireProduct('31', { collections: ['c1'], available: false }));
  await putProducts(t, products);
  // One session per event: no co-occurrence, so item-to-item models have no signal here.
  let session = 0;
  const event = (type: string, productId: string) => ({ type, productId, sessionId: `seed-${session++}` });
  await postEvents(t, [
    event('purchase', '31'), event('purchase', '31'), event('purchase', '31'),
    event('purchase', '5'), event('purchase', '5'),
    event('purchase', '15'),
    event('add_to_cart', '25'),
    event('click', '2'),
    event('view', '3'),
  ]);
  return t;
}

const TRENDING = ['5', '15', '25', '2', '3', '1', '4', '6', '7', '8', '9', '10', '11', '12', '13', '14', '16', '17', '18', '19', '20', '21', '22', '23'];

describe('recommendations', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await seeded();
  });
  afterAll(() => t.cleanup());

  test('When an answer is for one shopper, then no shared cache may keep it; a store-wide one says nothing of caching', async () => {
    for (const query of ['strategy=recently-viewed&sessionId=s-cache', 'strategy=personalized&customerId=c-cache', 'customerId=c-cache']) {
      expect((await t.fetch(`/api/recommendations?${query}`)).headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await t.fetch('/api/recommendations?strategy=trending')).headers.get('cache-control')).toBeNull();
  });

  describe('limit', () => {
    test('When no limit is given, then 8 products come back and meta.count is 8', async () => {
      const body = await recommendations(t, 'strategy=trending');
      expect(ids(body)).toEqual(TRENDING.slice(0, 8));
      expect(body.meta.count).toBe(8);
    });

    test('When limit=24, then 24 products come back and meta.count is 24', async () => {
      const body = await recommendations(t, 'strategy=trending&limit=24');
      expect(ids(body)).toEqual(TRENDING);
      expect(body.meta.count).toBe(24);
    });

    test('When limit=1, then only the top product comes back', async () => {
      const body = await recommendations(t, 'strategy=trending&limit=1');
      expect(ids(body)).toEqual(['5']);
      expect(body.meta.count).toBe(1);
    });

    test('When fewer products exist than the limit, then meta.count equals the products returned', async () => {
      const body = await recommendations(t, 'strategy=collection-popular&collectionId=c1&exclude=11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30');
      expect(body.products.length).toBe(8);
      expect(body.meta.count).toBe(body.products.length);
    });
  });

  describe('item shape', () => {
    test('When trending answers, then every item has the spec fields, a gid id, a score and its strategy', async () => {
      const body = await recommendations(t, 'strategy=trending&limit=24');
      expect(body.products[0]).toEqual({
        id: 'gid://shopify/Product/5',
        title: 'Product 5',
        handle: 'product-5',
        image: null,
        price: '10.00',
        compareAtPrice: null,
        vendor: 'Acme',
        score: wireScore(expectedFreshScore(12)),
        strategy: 'trending',
      });
      for (const item of body.products) {
        expect(Object.keys(item).sort()).toEqual(['compareAtPrice', 'handle', 'id', 'image', 'price', 'score', 'strategy', 'title', 'vendor']);
        expect(item.id).toMatch(GID);
        expect(typeof item.score).toBe('number');
      }
      expect(body.products.map((p) => p.score).slice(0, 6)).toEqual([12, 6, 4, 2, 1, 0].map((weighted) => wireScore(expectedFreshScore(weighted))));
      expect(body.meta).toEqual({ strategy: 'trending', modelLevel: 1, count: 24, fallback: false });
    });

    test('When a product has an image and a compare-at price, then they come back as stored', async () => {
      const local = await startTestService({ clock: () => NOW });
      try {
        await putProducts(local, [wireProduct('1', { image: 'https://cdn.example/1.jpg', price: 19.5, compareAtPrice: '25.00', handle: 'red-shirt', vendor: 'Zed' })]);
        const body = await recommendations(local, 'strategy=trending');
        expect(body.products).toEqual([
          { id: 'gid://shopify/Product/1', title: 'Product 1', handle: 'red-shirt', image: 'https://cdn.example/1.jpg', price: '19.5', compareAtPrice: '25.00', vendor: 'Zed', score: 0, strategy: 'trending' },
        ]);
        expect(body.meta).toMatchObject({ strategy: 'trending', modelLevel: 0, count: 1 });
      } finally {
        await local.cleanup();
      }
    });
  });

  describe('never returned', () => {
    test('When exclude lists bare and gid ids, then none of them comes back', async () => {
      const body = await recommendations(t, `strategy=trending&exclude=5,${encodeURIComponent('gid://shopify/Product/15')},2`);
      expect(ids(body)).toEqual(['25', '3', '1', '4', '6', '7', '8', '9']);
    });

    test('When productId is the context, then that product never comes back', async () => {
      const body = await recommendations(t, 'productId=5&limit=24');
      expect(ids(body)).not.toContain('5');
      expect(body.meta.count).toBe(24);
    });

    test('When the context productId is a gid, then that product never comes back either', async () => {
      const body = await recommendations(t, `strategy=trending&productId=${encodeURIComponent('gid://shopify/Product/5')}`);
      expect(ids(body)).toEqual(TRENDING.slice(1, 9));
    });

    test('When a product is unavailable, then it never comes back even though it trends most', async () => {
      const [trending, collection] = await Promise.all([
        recommendations(t, 'strategy=trending&limit=24'),
        recommendations(t, 'strategy=collection-popular&collectionId=c1&limit=24'),
      ]);
      expect(ids(trending)).not.toContain('31');
      expect(ids(collection)).not.toContain('31');
    });

    test('When a session dismisses a product, then that session never gets it but another session does', async () => {
      await postEvents(t, [{ type: 'dismiss', productId: '5', sessionId: 'dismisser' }]);
      const [mine, theirs] = await Promise.all([
        recommendations(t, 'strategy=trending&sessionId=dismisser'),
        recommendations(t, 'strategy=trending&sessionId=someone-else'),
      ]);
      expect(ids(mine)).toEqual(TRENDING.slice(1, 9));
      expect(ids(theirs)).toEqual(TRENDING.slice(0, 8));
    });

    test('When a customer dismisses a product, then that customer never gets it on any session but another customer does', async () => {
      await postEvents(t, [{ type: 'dismiss', productId: '15', sessionId: 'cust-s1', customerId: 'cust-1', customerToken: customerToken(t.shop, 'cust-1', NOW) }]);
      const [mine, mineElsewhere, theirs] = await Promise.all([
        recommendations(t, `strategy=trending&${as(t, 'cust-1')}`),
        recommendations(t, `strategy=collection-popular&collectionId=c2&${as(t, 'cust-1')}&sessionId=cust-s2`),
        recommendations(t, `strategy=trending&${as(t, 'cust-2')}`),
      ]);
      expect(ids(mine)).not.toContain('15');
      expect(ids(mine)[0]).toBe('5');
      expect(ids(mineElsewhere)).not.toContain('15');
      expect(ids(theirs)).toEqual(TRENDING.slice(0, 8));
    });

    test('When a dismissal is older than 30 days, then the product comes back to that shopper', async () => {
      await postEvents(t, [
        { type: 'dismiss', productId: '5', sessionId: 'old-dismiss', timestamp: NOW - 31 * 86_400_000 },
        { type: 'dismiss', productId: '15', sessionId: 'old-dismiss', timestamp: NOW - 29 * 86_400_000 },
      ]);
      const body = await recommendations(t, 'strategy=trending&sessionId=old-dismiss&limit=3');
      expect(ids(body)).toEqual(['5', '25', '2']);
    });
  });

  describe('auto strategy and backfill', () => {
    test('When only productId is given, then meta.strategy is bought-together', async () => {
      const body = await recommendations(t, 'productId=5');
      expect(body.meta.strategy).toBe('bought-together');
    });

    test('When only collectionId is given, then meta.strategy is collection-popular', async () => {
      const body = await recommendations(t, 'collectionId=c2');
      expect(body.meta.strategy).toBe('collection-popular');
      expect(body.products[0]).toMatchObject({ id: 'gid://shopify/Product/15', strategy: 'collection-popular' });
    });

    test('When nothing is given, then meta.strategy is trending', async () => {
      const body = await recommendations(t, '');
      expect(body.meta).toMatchObject({ strategy: 'trending', modelLevel: 1, count: 8 });
      expect(ids(body)).toEqual(TRENDING.slice(0, 8));
    });

    test('When a customer with history asks with no context, then meta.strategy is personalized', async () => {
      const local = await seeded();
      try {
        await postEvents(local, [{ type: 'view', productId: '9', sessionId: 'p-s', customerId: 'p-c', customerToken: customerToken(local.shop, 'p-c', NOW) }]);
        const [withHistory, without] = await Promise.all([recommendations(local, as(local, 'p-c')), recommendations(local, as(local, 'p-new'))]);
        expect(withHistory.meta.strategy).toBe('personalized');
        expect(without.meta.strategy).toBe('trending');
      } finally {
        await local.cleanup();
      }
    });

    test('When the productId is unknown, then 200 and the chain falls through to trending', async () => {
      const body = await recommendations(t, 'productId=999999');
      expect(body.meta).toMatchObject({ strategy: 'bought-together', count: 8, fallback: true });
      expect(ids(body)).toEqual(TRENDING.slice(0, 8));
      expect(body.products.every((p) => p.strategy === 'trending')).toBe(true);
    });

    test('When the collectionId is unknown, then 200 and trending fills the answer', async () => {
      const body = await recommendations(t, 'collectionId=nope');
      expect(body.meta).toMatchObject({ strategy: 'collection-popular', count: 8, fallback: true });
      expect(ids(body)).toEqual(TRENDING.slice(0, 8));
      expect(body.products.every((p) => p.strategy === 'trending')).toBe(true);
    });

    test('When bought-together has no basket partners, then similar backfills by content, own collection first, each item labelled', async () => {
      const body = await recommendations(t, 'productId=5&limit=12');
      // Every fixture product shares vendor, title word and price band; c1 members also share the collection.
      expect(ids(body)).toEqual(['1', '2', '3', '4', '6', '7', '8', '9', '10', '11', '12', '13']);
      expect(body.products.map((p) => p.strategy)).toEqual(Array(12).fill('similar'));
      expect(body.meta).toMatchObject({ strategy: 'bought-together', modelLevel: 0, count: 12, fallback: true });
    });

    test('When collection-popular answers, then its items all belong to the collection, most popular first', async () => {
      const body = await recommendations(t, 'strategy=collection-popular&collectionId=c2&limit=12');
      const own = body.products.filter((p) => p.strategy === 'collection-popular');
      expect(ids({ ...body, products: own })).toEqual(['15', '11', '12', '13', '14', '16', '17', '18', '19', '20']);
      expect(body.products.slice(10).map((p) => p.strategy)).toEqual(['trending', 'trending']);
      expect(ids(body).slice(10)).toEqual(['5', '25']);
    });

    test('When collectionId is a gid, then it names the same collection', async () => {
      const [bare, gid] = await Promise.all([
        recommendations(t, 'strategy=collection-popular&collectionId=c3'),
        recommendations(t, `strategy=collection-popular&collectionId=${encodeURIComponent('gid://shopify/Collection/c3')}`),
      ]);
      expect(ids(gid)).toEqual(ids(bare));
      expect(ids(bare)[0]).toBe('25');
    });
  });

  describe('recently-viewed', () => {
    let local: TestService;
    afterEach(() => local?.cleanup());

    test('When a session views products, then recently-viewed returns them newest first and distinct', async () => {
      local = await seeded();
      for (const productId of ['3', '7', '3', '12']) {
        const res = await local.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: productId === '12' ? 'click' : 'view', productId, sessionId: 'rv' }) });
        expect(res.status).toBe(200);
      }
      const body = await recommendations(local, 'strategy=recently-viewed&sessionId=rv&limit=3');
      expect(ids(body)).toEqual(['12', '3', '7']);
      expect(body.products.map((p) => p.strategy)).toEqual(['recently-viewed', 'recently-viewed', 'recently-viewed']);
      expect(body.meta).toMatchObject({ strategy: 'recently-viewed', modelLevel: 3, count: 3 });
    });

    test('When one batch views a product again, then the repeat makes it the newest', async () => {
      local = await seeded();
      await postEvents(local, [
        { type: 'view', productId: '3', sessionId: 'rb' },
        { type: 'view', productId: '7', sessionId: 'rb' },
        { type: 'view', productId: '3', sessionId: 'rb' },
      ]);
      const body = await recommendations(local, 'strategy=recently-viewed&sessionId=rb&limit=2');
      expect(ids(body)).toEqual(['3', '7']);
    });

    test('When views carry timestamps out of order, then recently-viewed orders them by time', async () => {
      local = await seeded();
      await postEvents(local, [
        { type: 'view', productId: '8', sessionId: 'ts', timestamp: NOW - 3000 },
        { type: 'view', productId: '9', sessionId: 'ts', timestamp: NOW - 1000 },
        { type: 'view', productId: '10', sessionId: 'ts', timestamp: new Date(NOW - 2000).toISOString() },
      ]);
      const body = await recommendations(local, 'strategy=recently-viewed&sessionId=ts&limit=3');
      expect(ids(body)).toEqual(['9', '10', '8']);
    });

    test('When the shopper has fewer views than the limit, then the rest is backfilled and labelled', async () => {
      local = await seeded();
      await postEvents(local, [{ type: 'view', productId: '20', sessionId: 'few', customerId: 'few-c', customerToken: customerToken(local.shop, 'few-c', NOW) }]);
      const body = await recommendations(local, `strategy=recently-viewed&${as(local, 'few-c')}&limit=4`);
      expect(ids(body)).toEqual(['20', '5', '15', '25']);
      expect(body.products.map((p) => p.strategy)).toEqual(['recently-viewed', 'trending', 'trending', 'trending']);
    });
  });

  describe('read-your-writes', () => {
    test('When an event is acknowledged, then the very next answer reflects it', async () => {
      const local = await seeded();
      try {
        const before = await recommendations(local, 'strategy=trending&limit=3');
        expect(ids(before)).toEqual(['5', '15', '25']);
        const res = await local.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'purchase', productId: '30', sessionId: 'ryw' }) });
        expect(res.status).toBe(200);
        const afterOne = await recommendations(local, 'strategy=trending&limit=3');
        expect(ids(afterOne)).toEqual(['5', '15', '30']);
        await local.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'purchase', productId: '30', sessionId: 'ryw' }) });
        const afterTwo = await recommendations(local, 'strategy=trending&limit=3');
        expect(ids(afterTwo)).toEqual(['5', '30', '15']);
        // Two purchases now: the same score as product 5, which got the same two.
        expect(afterTwo.products[1]!.score).toBe(wireScore(expectedFreshScore(12)));
        expect(afterTwo.products[1]!.score).toBe(afterTwo.products[0]!.score);
      } finally {
        await local.cleanup();
      }
    });

    test('When a view is acknowledged, then the very next recently-viewed answer starts with it', async () => {
      const local = await seeded();
      try {
        for (const productId of ['4', '6', '8']) {
          await local.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId, sessionId: 'ryw-v' }) });
          const body = await recommendations(local, 'strategy=recently-viewed&sessionId=ryw-v&limit=1');
          expect(ids(body)).toEqual([productId]);
        }
      } finally {
        await local.cleanup();
      }
    });
  });
});
