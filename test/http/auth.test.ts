// Keys and scopes (docs/api.md, "Security model"): 401 with a Bearer challenge, 403 for
// the wrong scope, secret keys never from browsers or URLs, ?key=pk_… and CORS for the storefront.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateKey } from '../../src/store/shop-store.js';
import { expectProblem } from '../support/problem.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const EVENT = JSON.stringify({ type: 'click', productId: '1', sessionId: 'auth-s' });

describe('auth', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, [wireProduct('1'), wireProduct('2')]);
  });
  afterAll(() => t.cleanup());

  describe('unauthorized', () => {
    test.each([
      ['GET', '/api/recommendations'],
      ['POST', '/api/events'],
      ['POST', '/api/events/batch'],
      ['PUT', '/api/products'],
      ['GET', '/api/products/1'],
      ['DELETE', '/api/products/1'],
      ['GET', '/metrics'],
    ])('When %s %s has no key, then 401 unauthorized with WWW-Authenticate: Bearer', async (method, path) => {
      const res = await t.fetch(path, { method, key: null, body: method === 'GET' || method === 'DELETE' ? undefined : '{}' });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      await expectProblem(res, 401, 'unauthorized');
    });

    test('When the key is unknown, then 401 unauthorized with WWW-Authenticate', async () => {
      const res = await t.fetch('/api/recommendations', { key: generateKey('public') });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      const body = await expectProblem(res, 401, 'unauthorized');
      expect(body.detail).toBe('unknown API key');
    });

    test.each([
      ['Basic scheme', (key: string) => `Basic ${key}`],
      ['no token', () => 'Bearer'],
      ['two tokens', (key: string) => `Bearer ${key} extra`],
      ['the bare key', (key: string) => key],
    ])('When the Authorization header is malformed (%s), then 401 unauthorized with WWW-Authenticate', async (_name, header) => {
      const res = await t.fetch('/api/recommendations', { headers: { authorization: header(t.shop.publicKey) } });
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
      await expectProblem(res, 401, 'unauthorized');
    });

    test('When ?key= names an unknown public key, then 401 unauthorized', async () => {
      const res = await t.fetch(`/api/recommendations?key=${generateKey('public')}`, { key: null });
      await expectProblem(res, 401, 'unauthorized');
    });

    test('When GET /healthz has no key, then 200 {status:"ok"}', async () => {
      const res = await t.fetch('/healthz', { key: null });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', pid: expect.any(Number), shops: expect.any(Number), behind: 0 });
    });
  });

  describe('forbidden', () => {
    test.each([
      ['PUT', '/api/products', JSON.stringify({ products: [wireProduct('9')] })],
      ['GET', '/api/products/1', undefined],
      ['DELETE', '/api/products/1', undefined],
      ['GET', '/metrics', undefined],
    ])('When the public key calls %s %s, then 403 forbidden and nothing changes', async (method, path, body) => {
      const res = await t.fetch(path, { method, body });
      await expectProblem(res, 403, 'forbidden');
      const catalog = t.service.engines.get(t.shop.shopId).catalog;
      expect(catalog.get('9')).toBeUndefined();
      expect(catalog.get('1')).toBeDefined();
    });

    test('When the secret key comes with an Origin header, then 403 forbidden', async () => {
      const res = await t.fetch('/api/products/1', { key: t.shop.secretKey, headers: { origin: 'https://shop.example' } });
      await expectProblem(res, 403, 'forbidden');
    });

    test('When the secret key comes with an Origin header on a storefront route, then 403 forbidden', async () => {
      const res = await t.fetch('/api/recommendations', { key: t.shop.secretKey, headers: { origin: 'https://shop.example' } });
      await expectProblem(res, 403, 'forbidden');
    });

    test('When the secret key is sent as ?key=, then 403 forbidden', async () => {
      const res = await t.fetch(`/api/recommendations?key=${t.shop.secretKey}`, { key: null });
      const body = await expectProblem(res, 403, 'forbidden');
      expect(body.detail).toMatch(/URL/);
    });

    test.each([
      ['the public key', 'GET', '/api/recommendations', 'publicKey'],
      ['the public key', 'POST', '/api/events', 'publicKey'],
      ['the secret key', 'GET', '/metrics', 'secretKey'],
    ] as const)('When %s is in the Authorization header and a secret key in ?key=, then %s %s answers 403 forbidden', async (_name, method, path, header) => {
      const before = t.service.engines.get(t.shop.shopId).eventCount;
      const res = await t.fetch(`${path}?key=${t.shop.secretKey}`, { method, key: t.shop[header], body: method === 'POST' ? EVENT : undefined });
      const body = await expectProblem(res, 403, 'forbidden');
      expect(body.detail).toMatch(/URL/);
      expect(t.service.engines.get(t.shop.shopId).eventCount).toBe(before);
    });

    test('When the secret key is sent as ?key= to /metrics, then 403 forbidden', async () => {
      await expectProblem(await t.fetch(`/metrics?key=${t.shop.secretKey}`, { key: null }), 403, 'forbidden');
    });
  });

  describe('accepted keys', () => {
    test('When ?key=pk_… is sent instead of the header, then recommendations answer 200', async () => {
      const res = await t.fetch(`/api/recommendations?strategy=trending&key=${t.shop.publicKey}`, { key: null });
      expect(res.status).toBe(200);
      expect((await res.json()).meta).toMatchObject({ strategy: 'trending', count: 2 });
    });

    test('When ?key=pk_… is sent with a text/plain batch (sendBeacon), then the event is stored', async () => {
      const res = await t.fetch(`/api/events/batch?key=${t.shop.publicKey}`, {
        key: null,
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify({ events: [JSON.parse(EVENT)] }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, accepted: 1, rejected: 0 });
    });

    test('When the secret key calls a storefront route without Origin, then it is allowed', async () => {
      const res = await t.fetch('/api/recommendations?strategy=trending', { key: t.shop.secretKey });
      expect(res.status).toBe(200);
    });

    test('When the scheme is lowercase "bearer", then the key is accepted', async () => {
      const res = await t.fetch('/api/recommendations', { headers: { authorization: `bearer ${t.shop.publicKey}` } });
      expect(res.status).toBe(200);
    });
  });

  describe('CORS', () => {
    test.each(['/api/recommendations', '/api/events', '/api/events/batch'])(
      'When a browser preflights %s, then 204 with the CORS headers and no credentials',
      async (path) => {
        const res = await t.fetch(path, {
          method: 'OPTIONS',
          key: null,
          headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
        });
        expect(res.status).toBe(204);
        expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
        expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
        expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type, pairwise-after');
        expect(res.headers.get('access-control-max-age')).toBe('86400');
        expect(res.headers.get('vary')).toBe('Origin');
        expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      },
    );

    test('When an admin route is preflighted, then 405 with no CORS headers', async () => {
      const res = await t.fetch('/api/products', { method: 'OPTIONS', key: null, headers: { origin: 'https://shop.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      await expectProblem(res, 405, 'method_not_allowed');
    });

    test('When a browser calls recommendations with the public key, then the answer allows its origin', async () => {
      const res = await t.fetch('/api/recommendations', { headers: { origin: 'https://shop.example' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    });

    test('When a browser call fails, then the problem answer still carries the CORS header', async () => {
      const res = await t.fetch('/api/events', { method: 'POST', body: '{', headers: { origin: 'https://shop.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      await expectProblem(res, 400, 'invalid_json');
    });

    test('When the shop lists its allowed origins, then another origin gets 403 and a listed one 200', async () => {
      const b = await startTestService();
      try {
        await b.service.shops.setAllowedOrigins(b.shop.shopId, ['https://allowed.example']);
        // The key resolver caches principals: this service has not resolved the key yet.
        const denied = await b.fetch('/api/recommendations', { headers: { origin: 'https://other.example' } });
        await expectProblem(denied, 403, 'forbidden');
        const allowed = await b.fetch('/api/recommendations', { headers: { origin: 'https://allowed.example' } });
        expect(allowed.status).toBe(200);
      } finally {
        await b.cleanup();
      }
    });
  });
});
