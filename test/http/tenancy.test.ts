// Two shops in one service: the key names the shop, and nothing of one shop reaches the other.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { expectedFreshScore, wireScore } from '../support/trending.js';
import { ids, newShop, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('tenancy', () => {
  let t: TestService;
  const b = newShop('shop-b');
  const asB = (path: string, init: RequestInit & { key?: string } = {}) => t.fetch(path, { key: b.publicKey, ...init });

  beforeAll(async () => {
    t = await startTestService({ clock: () => NOW });
    await t.service.shops.ensureShop(b.shopId);
    await t.service.shops.addKey(b.shopId, b.publicKey);
    await t.service.shops.addKey(b.shopId, b.secretKey);
    await putProducts(t, [wireProduct('1'), wireProduct('2'), wireProduct('3')]);
    const res = await asB('/api/products', {
      method: 'PUT',
      key: b.secretKey,
      body: JSON.stringify({ products: [wireProduct('3', { title: 'B three' }), wireProduct('b1', { title: 'B only' })] }),
    });
    expect(res.status).toBe(200);
    await t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'click', productId: '1', sessionId: 'a' }) });
  });
  afterAll(() => t.cleanup());

  test("When shop B sends events, then shop A's answers do not change", async () => {
    const queries = ['strategy=trending', 'strategy=collection-popular&collectionId=c1', 'productId=1', 'strategy=recently-viewed&sessionId=shared'];
    const before = await Promise.all(queries.map((q) => recommendations(t, q)));
    const res = await asB('/api/events/batch', {
      method: 'POST',
      body: JSON.stringify({
        events: [
          { type: 'purchase', productId: '3', sessionId: 'shared' },
          { type: 'purchase', productId: '3', sessionId: 'shared' },
          { type: 'view', productId: '2', sessionId: 'shared' },
          { type: 'dismiss', productId: '1', sessionId: 'shared' },
        ],
      }),
    });
    expect((await res.json()).accepted).toBe(4);
    const after = await Promise.all(queries.map((q) => recommendations(t, q)));
    expect(after).toEqual(before);
    expect(ids(after[0]!)).toEqual(['1', '2', '3']);
    // …while shop B sees its own events.
    const bTrending = await recommendations(t, 'strategy=trending', b.publicKey);
    expect(bTrending.products.map((p) => [p.id, p.title, p.score])).toEqual([
      ['gid://shopify/Product/3', 'B three', wireScore(expectedFreshScore(12))],
      ['gid://shopify/Product/b1', 'B only', 0],
    ]);
  });

  test("When shop A's key asks for shop B's product, then 404, and shop A's own copy is its own", async () => {
    await expectProblem(await t.fetch('/api/products/b1', { key: t.shop.secretKey }), 404, 'not_found');
    expect((await (await t.fetch('/api/products/3', { key: t.shop.secretKey })).json()).title).toBe('Product 3');
    expect((await (await t.fetch('/api/products/3', { key: b.secretKey })).json()).title).toBe('B three');
  });

  test("When shop A's key deletes a product id only shop B has, then 404 and shop B keeps it", async () => {
    await expectProblem(await t.fetch('/api/products/b1', { method: 'DELETE', key: t.shop.secretKey }), 404, 'not_found');
    expect((await t.fetch('/api/products/b1', { key: b.secretKey })).status).toBe(200);
  });

  test("When shop A asks for recommendations, then shop B's products never appear", async () => {
    const body = await recommendations(t, 'strategy=trending&limit=24');
    expect(ids(body)).not.toContain('b1');
    expect(body.products.find((p) => p.id === 'gid://shopify/Product/3')!.title).toBe('Product 3');
  });

  test('When both shops use the same messageId, then each stores its own event', async () => {
    const event = JSON.stringify({ type: 'click', productId: '2', sessionId: 'm', messageId: 'same-message' });
    const a = await (await t.fetch('/api/events', { method: 'POST', body: event })).json();
    const bAck = await (await asB('/api/events', { method: 'POST', body: event })).json();
    expect(a.duplicate).toBeUndefined();
    expect(bAck.duplicate).toBeUndefined();
    expect(bAck.eventId).not.toBe(a.eventId);
  });

  test('When each shop reads /metrics, then it sees only its own counts', async () => {
    const [textA, textB] = await Promise.all([
      t.fetch('/metrics', { key: t.shop.secretKey }).then((r) => r.text()),
      t.fetch('/metrics', { key: b.secretKey }).then((r) => r.text()),
    ]);
    expect(textA).toContain(`pairwise_products{shop="${t.shop.shopId}"} 3`);
    expect(textA).not.toContain('shop-b');
    expect(textB).toContain('pairwise_products{shop="shop-b"} 2');
    expect(textB).not.toContain(`shop="${t.shop.shopId}"`);
  });

  test('When a body or query names another shop, then the key still decides', async () => {
    const res = await t.fetch('/api/recommendations?strategy=trending&shop=shop-b&shopId=shop-b');
    expect(ids((await res.json()) as RecommendationBody)).toEqual(ids(await recommendations(t, 'strategy=trending')));
  });
});
