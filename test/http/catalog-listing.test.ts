// GET /api/products (the catalog, paged) and GET /api/shop (the shop's counts and settings), both
// secret-key only: through the real server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compareProductIds } from '../../src/engine/catalog.js';
import { expectProblem } from '../support/problem.js';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

interface Page {
  products: { id: string; title: string; updatedAt: string }[];
  nextCursor: string | null;
}

const bare = (gid: string) => gid.replace(/^gid:\/\/[^/]+\/Product\//, '');

describe('catalog listing and shop info', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t.cleanup());

  async function page(query: string): Promise<Page> {
    const res = await t.fetch(`/api/products?${query}`, { key: t.shop.secretKey });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    return (await res.json()) as Page;
  }

  /** Every page from the start; `between` runs after each page but the last. */
  async function listAll(limit: number, between: (round: number) => Promise<void> = async () => {}): Promise<string[][]> {
    const pages: string[][] = [];
    let cursor: string | null = '';
    for (let round = 0; cursor !== null; round++) {
      const body: Page = await page(`limit=${limit}${cursor === '' ? '' : `&cursor=${cursor}`}`);
      pages.push(body.products.map((p) => bare(p.id)));
      cursor = body.nextCursor;
      if (cursor !== null) await between(round);
    }
    return pages;
  }

  test('When the catalog is listed page by page, then every product comes exactly once in product-id order, and the last page has nextCursor null', async () => {
    const ids = Array.from({ length: 23 }, (_, i) => (i % 3 === 0 ? `sku-${i}` : String(i * 7)));
    await putProducts(t, ids.map((id) => wireProduct(id)));

    const pages = await listAll(5);

    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    expect(pages.flat()).toEqual([...ids].sort(compareProductIds));
    const first = await page('');
    expect(first.products).toHaveLength(23); // the default limit (50) holds them all
    expect(first.nextCursor).toBeNull();
    expect(first.products[0]).toMatchObject({ id: 'gid://shopify/Product/7', title: 'Product 7', available: true, collections: ['c1'] });
  });

  test('When products are added while the catalog is being paged, then no product present from the start is skipped or repeated', async () => {
    const before = (await listAll(250)).flat();
    let added = 0;
    // Between pages: new ids before, among and after the ones already listed.
    const pages = await listAll(4, async (round) => {
      const fresh = [`0${round}`, String(round * 7 + 1), `zz-${round}`, `sku-${round}x`].map((id) => wireProduct(`${id}-n${added++}`));
      await putProducts(t, fresh);
    });

    const listed = pages.flat();
    expect(new Set(listed).size).toBe(listed.length);
    for (const id of before) expect(listed.filter((x) => x === id), id).toHaveLength(1);
    for (let i = 1; i < listed.length; i++) expect(compareProductIds(listed[i - 1]!, listed[i]!)).toBeLessThan(0);
    expect(added).toBeGreaterThan(0);
  });

  test('When a listed product is deleted before the next page, then the cursor still works', async () => {
    const first = await page('limit=2');
    await t.fetch(`/api/products/${bare(first.products[1]!.id)}`, { method: 'DELETE', key: t.shop.secretKey });
    const next = await page(`limit=2&cursor=${first.nextCursor}`);
    expect(compareProductIds(bare(next.products[0]!.id), bare(first.products[1]!.id))).toBeGreaterThan(0);
  });

  test.each([
    ['limit=0', 'invalid_limit', '/limit'],
    ['limit=251', 'invalid_limit', '/limit'],
    ['limit=abc', 'invalid_limit', '/limit'],
    ['cursor=not-a-cursor', 'invalid_cursor', '/cursor'],
    ['cursor=%00', 'invalid_cursor', '/cursor'],
    ['cursor=MToxMj', 'invalid_cursor', '/cursor'], // "1:12" with stray bits: not the encoding we write
    ['cursor=Mjox', 'invalid_cursor', '/cursor'], // "2:1": a version we never wrote
  ])('When the query is %s, then 400 %s', async (query, code, pointer) => {
    await expectProblem(await t.fetch(`/api/products?${query}`, { key: t.shop.secretKey }), 400, code, pointer);
  });

  test('When a shop asks about itself, then GET /api/shop gives its id, counts and settings, and no secret', async () => {
    await postEvents(t, [
      { type: 'view', productId: '7', sessionId: 's1' },
      { type: 'purchase', productId: '14', sessionId: 's2' },
    ]);
    const res = await t.fetch('/api/shop', { key: t.shop.secretKey });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    const products = (await listAll(250)).flat().length;
    expect(body).toMatchObject({
      shopId: t.shop.shopId,
      demo: false,
      counts: { products, collections: 1, events: 2, shoppers: 2, customers: 0, sessions: 2, pendingEvents: 0, keys: { public: 1, secret: 1 } },
      settings: { allowedOrigins: [], customerTokenSecrets: 1, appProxy: false, trendingHalfLifeHours: 48, eventWeights: { view: 1, purchase: 6 }, maxCustomers: 100_000, maxSessions: 100_000 },
    });
    expect(Date.parse(body.createdAt)).not.toBeNaN();
    expect(JSON.stringify(body)).not.toMatch(/cts_|sk_|pk_/);
  });

  describe.each(['/api/products', '/api/products?limit=3', '/api/shop'])('%s', (path) => {
    test('When it is asked with the public key, then 403 forbidden', async () => {
      await expectProblem(await t.fetch(path, { key: t.shop.publicKey }), 403, 'forbidden');
    });
    test('When it is asked with no key or an unknown one, then 401 with a Bearer challenge', async () => {
      for (const key of [null, 'sk_unknownunknownunknownunknown']) {
        const res = await t.fetch(path, { key });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
        await expectProblem(res, 401, 'unauthorized');
      }
    });
    test('When the secret key comes from a browser (Origin), then 403', async () => {
      await expectProblem(await t.fetch(path, { key: t.shop.secretKey, headers: { origin: 'https://shop.example' } }), 403, 'forbidden');
    });
    test('When it is posted to, then 405 with Allow', async () => {
      const res = await t.fetch(path, { method: 'POST', key: t.shop.secretKey, body: '{}' });
      expect(res.headers.get('allow')).toMatch(/GET/);
      await expectProblem(res, 405, 'method_not_allowed');
    });
  });
});
