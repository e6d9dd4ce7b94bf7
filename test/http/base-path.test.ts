// BASE_PATH (the app-proxy form): every /api route also answers under BASE_PATH + /api.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { ANY_POSITION, startTestService, wireProduct, type TestService } from '../support/service.js';

describe('BASE_PATH', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ env: { BASE_PATH: '/apps/recs/' } });
  });
  afterAll(() => t.cleanup());

  test('When the catalog is loaded under BASE_PATH, then GET under both prefixes sees it', async () => {
    const put = await t.fetch('/apps/recs/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products: [wireProduct('1'), wireProduct('2')] }) });
    expect(await put.json()).toEqual({ success: true, upserted: 2, position: ANY_POSITION });
    const [prefixed, plain] = await Promise.all([
      t.fetch('/apps/recs/api/products/1', { key: t.shop.secretKey }).then((r) => r.json()),
      t.fetch('/api/products/1', { key: t.shop.secretKey }).then((r) => r.json()),
    ]);
    expect(prefixed).toEqual(plain);
    expect(prefixed.id).toBe('gid://shopify/Product/1');
  });

  test('When an event is posted under BASE_PATH, then recommendations under BASE_PATH reflect it', async () => {
    const ack = await t.fetch('/apps/recs/api/events', { method: 'POST', body: JSON.stringify({ type: 'purchase', productId: '2', sessionId: 's' }) });
    expect((await ack.json()).success).toBe(true);
    const batch = await t.fetch('/apps/recs/api/events/batch', { method: 'POST', body: JSON.stringify({ events: [{ type: 'view', productId: '1', sessionId: 's' }] }) });
    expect((await batch.json()).accepted).toBe(1);
    const body = await (await t.fetch('/apps/recs/api/recommendations?strategy=trending')).json();
    expect(body.products.map((p: { id: string }) => p.id)).toEqual(['gid://shopify/Product/2', 'gid://shopify/Product/1']);
    expect(body.meta).toMatchObject({ strategy: 'trending', count: 2 });
  });

  test('When a product is deleted under BASE_PATH, then it is gone', async () => {
    const res = await t.fetch('/apps/recs/api/products/1', { method: 'DELETE', key: t.shop.secretKey });
    expect(res.status).toBe(200);
    await expectProblem(await t.fetch('/api/products/1', { key: t.shop.secretKey }), 404, 'not_found');
  });

  test('When a storefront route under BASE_PATH is preflighted, then 204 with CORS headers', async () => {
    const res = await t.fetch('/apps/recs/api/events/batch', { method: 'OPTIONS', key: null, headers: { origin: 'https://store.example' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://store.example');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
  });

  test('When a route under BASE_PATH gets the wrong method, then 405 with Allow', async () => {
    const res = await t.fetch('/apps/recs/api/recommendations', { method: 'POST', body: '{}' });
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    await expectProblem(res, 405, 'method_not_allowed');
  });

  test('When the key is missing under BASE_PATH, then 401 with WWW-Authenticate', async () => {
    const res = await t.fetch('/apps/recs/api/recommendations', { key: null });
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    await expectProblem(res, 401, 'unauthorized');
  });

  test('When a path under BASE_PATH is unknown or outside /api, then 404 not_found', async () => {
    await expectProblem(await t.fetch('/apps/recs/api/nope'), 404, 'not_found');
    await expectProblem(await t.fetch('/apps/recs/healthz'), 404, 'not_found');
    await expectProblem(await t.fetch('/apps/other/api/recommendations'), 404, 'not_found');
  });

  test('When /healthz and /metrics are called at the root, then they answer', async () => {
    expect((await t.fetch('/healthz', { key: null })).status).toBe(200);
    expect((await t.fetch('/metrics', { key: t.shop.secretKey })).status).toBe(200);
  });
});
