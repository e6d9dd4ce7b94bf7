// The catalog routes (secret key): PUT /api/products upsert, GET and DELETE /api/products/:id.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { ANY_POSITION, ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { expectedFreshScore, wireScore } from '../support/trending.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('products', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ clock: () => NOW });
  });
  afterAll(() => t.cleanup());

  const put = (products: unknown[]) => t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products }) });
  const get = (id: string) => t.fetch(`/api/products/${id}`, { key: t.shop.secretKey });
  const del = (id: string) => t.fetch(`/api/products/${id}`, { method: 'DELETE', key: t.shop.secretKey });

  test('When products are upserted, then 200 {success, upserted} and GET returns every stored field', async () => {
    const res = await put([
      wireProduct('101', { title: 'Red Shirt', handle: 'red-shirt', image: 'https://cdn.example/r.jpg', price: '19.99', compareAtPrice: 25, productType: 'Shirt', tags: ['red', 'red', 'cotton'], collections: ['c1', 'gid://shopify/Collection/c2'], available: true }),
      { id: 'gid://shopify/Product/102', title: 'Blue Hat Ünïcode' },
    ]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, upserted: 2, position: ANY_POSITION });

    const one = await get('101');
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/json');
    expect(await one.json()).toEqual({
      id: 'gid://shopify/Product/101',
      title: 'Red Shirt',
      handle: 'red-shirt',
      image: 'https://cdn.example/r.jpg',
      price: '19.99',
      compareAtPrice: '25',
      vendor: 'Acme',
      productType: 'Shirt',
      tags: ['red', 'cotton'],
      collections: ['c1', 'c2'],
      available: true,
      repurchasable: false,
      attributes: {},
      updatedAt: new Date(NOW).toISOString(),
    });

    const two = await (await get(encodeURIComponent('gid://shopify/Product/102'))).json();
    expect(two).toEqual({
      id: 'gid://shopify/Product/102',
      title: 'Blue Hat Ünïcode',
      handle: 'blue-hat-unicode',
      image: null,
      price: null,
      compareAtPrice: null,
      vendor: null,
      productType: null,
      tags: [],
      collections: [],
      available: true,
      repurchasable: false,
      attributes: {},
      updatedAt: new Date(NOW).toISOString(),
    });
  });

  test('When a product comes with another platform in its gid, then its output id keeps that platform', async () => {
    await put([{ id: 'gid://bigshop/Product/103', title: 'Elsewhere' }]);
    expect((await (await get('103')).json()).id).toBe('gid://bigshop/Product/103');
  });

  test('When 1000 products are upserted at once, then all are stored', async () => {
    const local = await startTestService({ clock: () => NOW });
    try {
      const products = Array.from({ length: 1000 }, (_, i) => wireProduct(`k${i}`));
      const res = await local.fetch('/api/products', { method: 'PUT', key: local.shop.secretKey, body: JSON.stringify({ products }) });
      expect(await res.json()).toEqual({ success: true, upserted: 1000, position: ANY_POSITION });
      expect(local.service.engines.get(local.shop.shopId).catalog.productCount).toBe(1000);
    } finally {
      await local.cleanup();
    }
  });

  test('When 1001 products are upserted at once, then 400 invalid_product and none is stored', async () => {
    const before = t.service.engines.get(t.shop.shopId).catalog.productCount;
    const products = Array.from({ length: 1001 }, (_, i) => wireProduct(`over-${i}`));
    const body = await expectProblem(await put(products), 400, 'invalid_product', '/products');
    expect(body.detail).toContain('1000');
    expect(t.service.engines.get(t.shop.shopId).catalog.productCount).toBe(before);
    await expectProblem(await get('over-0'), 404, 'not_found');
  });

  test('When one product of an upsert is invalid, then none of them is stored', async () => {
    const res = await put([wireProduct('good-1'), wireProduct('bad-1', { price: -1 })]);
    await expectProblem(res, 400, 'invalid_product', '/products/1/price');
    await expectProblem(await get('good-1'), 404, 'not_found');
  });

  test('When a product is updated, then GET and recommendations show the new title', async () => {
    await put([wireProduct('201', { title: 'Old Title', collections: ['upd'] })]);
    expect((await recommendations(t, 'strategy=collection-popular&collectionId=upd')).products[0]!.title).toBe('Old Title');
    await put([wireProduct('201', { title: 'New Title', collections: ['upd'] })]);
    expect((await (await get('201')).json()).title).toBe('New Title');
    const body = await recommendations(t, 'strategy=collection-popular&collectionId=upd');
    expect(body.products.filter((p) => p.strategy === 'collection-popular').map((p) => [p.id, p.title, p.handle])).toEqual([['gid://shopify/Product/201', 'New Title', 'new-title']]);
  });

  test('When a product becomes unavailable, then it drops out of recommendations but GET still shows it', async () => {
    await put([wireProduct('301', { collections: ['avail'] }), wireProduct('302', { collections: ['avail'] })]);
    await put([wireProduct('301', { collections: ['avail'], available: false })]);
    const body = await recommendations(t, 'strategy=collection-popular&collectionId=avail');
    expect(body.products.filter((p) => p.strategy === 'collection-popular').map((p) => p.id)).toEqual(['gid://shopify/Product/302']);
    expect((await (await get('301')).json()).available).toBe(false);
  });

  test('When a product moves to another collection, then it leaves the old collection-popular answer', async () => {
    await put([wireProduct('401', { collections: ['from'] }), wireProduct('402', { collections: ['from'] })]);
    await put([wireProduct('401', { collections: ['to'] })]);
    const [from, to] = await Promise.all([
      recommendations(t, 'strategy=collection-popular&collectionId=from'),
      recommendations(t, 'strategy=collection-popular&collectionId=to'),
    ]);
    expect(from.products.filter((p) => p.strategy === 'collection-popular').map((p) => p.id)).toEqual(['gid://shopify/Product/402']);
    expect(to.products.filter((p) => p.strategy === 'collection-popular').map((p) => p.id)).toEqual(['gid://shopify/Product/401']);
  });

  test('When a product is deleted, then 200, GET answers 404 and it never comes back in recommendations', async () => {
    await put([wireProduct('501', { collections: ['gone'] }), wireProduct('502', { collections: ['gone'] })]);
    await postEvents(t, [{ type: 'purchase', productId: '501', sessionId: 'del' }, { type: 'purchase', productId: '501', sessionId: 'del' }]);
    expect(ids(await recommendations(t, 'strategy=trending&limit=1'))).toEqual(['501']);

    const res = await del('501');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, deleted: '501', position: ANY_POSITION });
    await expectProblem(await get('501'), 404, 'not_found');
    const [trending, collection] = await Promise.all([
      recommendations(t, 'strategy=trending&limit=24'),
      recommendations(t, 'strategy=collection-popular&collectionId=gone&limit=24'),
    ]);
    expect(ids(trending)).not.toContain('501');
    expect(ids(collection)).not.toContain('501');
    expect(ids(collection)[0]).toBe('502');
    await expectProblem(await del('501'), 404, 'not_found');
  });

  test('When a deleted product is upserted again, then its earlier events count again', async () => {
    await put([wireProduct('601')]);
    await postEvents(t, [0, 1, 2].map((i) => ({ type: 'purchase', productId: '601', sessionId: `back-${i}` })));
    await del('601');
    await put([wireProduct('601')]);
    const body = await recommendations(t, 'strategy=trending&limit=1');
    // All three purchases (3 × 6) count again.
    expect(body.products.map((p) => [p.id, p.score])).toEqual([['gid://shopify/Product/601', wireScore(expectedFreshScore(18))]]);
  });

  test('When a product is deleted by its gid, then it is gone', async () => {
    await put([wireProduct('701')]);
    const res = await del(encodeURIComponent('gid://shopify/Product/701'));
    expect(res.status).toBe(200);
    await expectProblem(await get('701'), 404, 'not_found');
  });

  test('When the product id in the path is not an id, then 404 not_found', async () => {
    await expectProblem(await get('not%20an%20id'), 404, 'not_found');
  });

  test('When events name a product before it is in the catalog, then they count once it appears', async () => {
    // Four shoppers: one shopper's purchases of a product count up to 16 a day.
    await postEvents(t, [0, 1, 2, 3].map((i) => ({ type: 'purchase', productId: '801', sessionId: `early-${i}` })));
    expect(ids(await recommendations(t, 'strategy=trending&limit=24'))).not.toContain('801');
    await put([wireProduct('801', { collections: ['late'] })]);
    const [trending, collection] = await Promise.all([recommendations(t, 'strategy=trending&limit=1'), recommendations(t, 'strategy=collection-popular&collectionId=late')]);
    // All four purchases (4 × 6) count.
    expect(trending.products.map((p) => [p.id, p.score])).toEqual([['gid://shopify/Product/801', wireScore(expectedFreshScore(24))]]);
    expect(collection.products[0]).toMatchObject({ id: 'gid://shopify/Product/801', score: 24, strategy: 'collection-popular' });
  });

  test('When GET /metrics is called with the secret key, then it reports the shop in Prometheus text', async () => {
    const res = await t.fetch('/metrics', { key: t.shop.secretKey });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    const count = t.service.engines.get(t.shop.shopId).catalog.productCount;
    expect(text).toContain('# TYPE pairwise_events_applied_total counter');
    expect(text).toContain(`pairwise_products{shop="${t.shop.shopId}"} ${count}`);
    expect(text).toContain(`pairwise_events_applied_total{shop="${t.shop.shopId}"} ${t.service.engines.get(t.shop.shopId).eventCount}`);
    expect(text).toMatch(/^process_resident_memory_bytes\{server="1"\} \d+$/m);
    expect(text).toContain(`pairwise_ease_fit_products{shop="${t.shop.shopId}"} ${t.service.engines.get(t.shop.shopId).ease.size}`);
    expect(text).toMatch(/^pairwise_ease_refit_running [01]$/m);
  });

  test('When a snapshot has been taken, then /metrics shows the buffer it was copied into, kept for the next', async () => {
    const copyBytes = async () => Number(/^pairwise_snapshot_copy_buffer_bytes\{server="1"\} (\d+)$/m.exec(await (await t.fetch('/metrics', { key: t.shop.secretKey })).text())![1]);
    // Enough products and events that some of the models' arrays pass the 1 KiB a part needs to go into the buffer.
    await putProducts(t, Array.from({ length: 500 }, (_, i) => wireProduct(String(9000 + i))));
    await postEvents(t, Array.from({ length: 100 }, (_, i) => ({ type: 'purchase', productId: String(9000 + ((i * 7) % 500)), sessionId: `metrics-${i % 10}` })));
    expect(await t.service.snapshot()).toBe(1);
    const kept = await copyBytes();
    expect(kept).toBeGreaterThan(0);
    await postEvents(t, [{ type: 'purchase', productId: '801', sessionId: 'metrics-2' }]);
    expect(await t.service.snapshot()).toBe(1);
    expect(await copyBytes()).toBe(kept); // the same buffer again
  });
});
