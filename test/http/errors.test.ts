// Every error code of the catalogue (docs/api.md, "Errors") with its status and problem+json body, and
// the routes' 404/405/413/415.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const event = (overrides: Record<string, unknown> = {}) => ({ type: 'click', productId: '1', sessionId: 's1', ...overrides });

describe('errors', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await putProducts(t, [wireProduct('1'), wireProduct('2')]);
  });
  afterAll(() => t.cleanup());

  async function eventCount(): Promise<number> {
    return t.service.engines.get(t.shop.shopId).eventCount;
  }

  describe('invalid_json', () => {
    test('When POST /api/events has a body that is not JSON, then 400 invalid_json', async () => {
      const res = await t.fetch('/api/events', { method: 'POST', body: '{"type":' });
      await expectProblem(res, 400, 'invalid_json');
    });

    test('When PUT /api/products has a body that is not JSON, then 400 invalid_json', async () => {
      const res = await t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: 'products' });
      await expectProblem(res, 400, 'invalid_json');
    });
  });

  describe('recommendation query', () => {
    test('When strategy is unknown, then 400 invalid_strategy pointing at /strategy', async () => {
      const res = await t.fetch('/api/recommendations?strategy=bestsellers');
      await expectProblem(res, 400, 'invalid_strategy', '/strategy');
    });

    test.each(['0', '25', '2.5', 'abc', '-1', '1e1'])('When limit=%s, then 400 invalid_limit pointing at /limit', async (limit) => {
      const res = await t.fetch(`/api/recommendations?strategy=trending&limit=${limit}`);
      const body = await expectProblem(res, 400, 'invalid_limit', '/limit');
      expect(body.detail).toBe('limit must be an integer from 1 to 24');
    });

    test('When exclude lists more than 100 ids, then 400 invalid_query pointing at /exclude', async () => {
      const exclude = Array.from({ length: 101 }, (_, i) => String(i + 1)).join(',');
      await expectProblem(await t.fetch(`/api/recommendations?exclude=${exclude}`), 400, 'invalid_query', '/exclude');
    });

    test('When filters is malformed or names an unknown attribute, then 400 invalid_filter pointing at /filters with the position', async () => {
      const malformed = await expectProblem(await t.fetch(`/api/recommendations?filters=${encodeURIComponent('vendor:')}`), 400, 'invalid_filter', '/filters');
      expect(malformed.errors![0]).toMatchObject({ position: 7, expected: expect.stringContaining('a value') });
      const unknown = await expectProblem(await t.fetch(`/api/recommendations?filters=${encodeURIComponent('price < 5 AND colour:red')}`), 400, 'invalid_filter', '/filters');
      expect(unknown.errors![0]).toMatchObject({ position: 14 });
    });

    test('When diversity is not attribute:count, then 400 invalid_diversity pointing at /diversity', async () => {
      await expectProblem(await t.fetch('/api/recommendations?diversity=vendor'), 400, 'invalid_diversity', '/diversity');
    });

    test('When productId is not a product id, then 400 invalid_query pointing at /productId', async () => {
      await expectProblem(await t.fetch(`/api/recommendations?productId=${encodeURIComponent('gid://shopify/Collection/1')}`), 400, 'invalid_query', '/productId');
    });

    test.each([
      ['similar', '', '/productId'],
      ['bought-together', '', '/productId'],
      ['collection-popular', '&productId=1', '/collectionId'],
      ['recently-viewed', '&productId=1', '/customerId'],
      ['personalized', '', '/customerId'],
    ])('When strategy=%s lacks its context%s, then 400 missing_context pointing at %s', async (strategy, extra, pointer) => {
      const res = await t.fetch(`/api/recommendations?strategy=${strategy}${extra}`);
      await expectProblem(res, 400, 'missing_context', pointer);
    });
  });

  describe('invalid_event', () => {
    test.each([
      ['type is missing', { productId: '1', sessionId: 's1' }, '/type'],
      ['type is unknown', event({ type: 'like' }), '/type'],
      ['sessionId is missing', { type: 'click', productId: '1' }, '/sessionId'],
      ['productId is missing', { type: 'click', sessionId: 's1' }, '/productId'],
      ['productId is not an id', event({ productId: 'gid://shopify/Collection/1' }), '/productId'],
      ['metadata is an array', event({ metadata: [1] }), '/metadata'],
      ['metadata is over 1 KiB', event({ metadata: { note: 'x'.repeat(1100) } }), '/metadata'],
      ['messageId is over 64 chars', event({ messageId: 'm'.repeat(65) }), '/messageId'],
      ['timestamp is not a date', event({ timestamp: 'yesterday' }), '/timestamp'],
    ])('When %s, then 400 invalid_event with its JSON pointer and nothing stored', async (_name, body, pointer) => {
      const before = await eventCount();
      const res = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify(body) });
      await expectProblem(res, 400, 'invalid_event', pointer);
      expect(await eventCount()).toBe(before);
    });

    test('When metadata nests 2,000 arrays deep inside a 4 KiB body, then 400 invalid_event at /metadata and nothing stored', async () => {
      const before = await eventCount();
      const body = `{"type":"click","productId":"1","sessionId":"s1","metadata":{"x":${'['.repeat(2000)}${']'.repeat(2000)}}}`;
      expect(body.length).toBeLessThan(4200);
      const res = await t.fetch('/api/events', { method: 'POST', body });
      await expectProblem(res, 400, 'invalid_event', '/metadata');
      expect(await eventCount()).toBe(before);
    });

    test('When the body is a JSON array, then 400 invalid_event', async () => {
      const res = await t.fetch('/api/events', { method: 'POST', body: '[]' });
      await expectProblem(res, 400, 'invalid_event');
    });
  });

  describe('invalid_batch and batch_too_large', () => {
    test.each([
      ['the body is an array', '[]'],
      ['the body is a string', '"events"'],
      ['events is not an array', '{"events":{"0":{}}}'],
      ['events is missing', '{}'],
      ['events is empty', '{"events":[]}'],
    ])('When %s, then 400 invalid_batch pointing at /events', async (_name, body) => {
      const res = await t.fetch('/api/events/batch', { method: 'POST', body });
      await expectProblem(res, 400, 'invalid_batch', '/events');
    });

    test('When a batch has 101 valid events, then 400 batch_too_large and none is stored', async () => {
      const before = await eventCount();
      const events = Array.from({ length: 101 }, (_, i) => event({ sessionId: `big-${i}` }));
      const res = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events }) });
      await expectProblem(res, 400, 'batch_too_large', '/events');
      expect(await eventCount()).toBe(before);
    });
  });

  describe('invalid_product', () => {
    test.each([
      ['a product has no title', { products: [{ id: '9' }] }, '/products/0/title'],
      ['a price is not an amount', { products: [wireProduct('9', { price: 'ten' })] }, '/products/0/price'],
      ['an id is not a product id', { products: [wireProduct('gid://shopify/Collection/9')] }, '/products/0/id'],
      ['products is empty', { products: [] }, '/products'],
      ['products is missing', {}, '/products'],
    ])('When %s, then 400 invalid_product and nothing changes', async (_name, body, pointer) => {
      const res = await t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify(body) });
      await expectProblem(res, 400, 'invalid_product', pointer);
      expect(t.service.engines.get(t.shop.shopId).catalog.productCount).toBe(2);
    });
  });

  describe('not_found', () => {
    test('When the route is unknown, then 404 not_found even without a key', async () => {
      const res = await t.fetch('/api/nothing-here', { key: null });
      await expectProblem(res, 404, 'not_found');
    });

    test('When the path is outside /api, then 404 not_found', async () => {
      await expectProblem(await t.fetch('/recommendations'), 404, 'not_found');
    });

    test('When the product is unknown, then GET and DELETE answer 404 not_found', async () => {
      await expectProblem(await t.fetch('/api/products/404', { key: t.shop.secretKey }), 404, 'not_found');
      await expectProblem(await t.fetch('/api/products/404', { method: 'DELETE', key: t.shop.secretKey }), 404, 'not_found');
    });
  });

  describe('method_not_allowed', () => {
    test.each([
      ['DELETE', '/api/recommendations', 'GET, HEAD, OPTIONS'],
      ['GET', '/api/events', 'POST, OPTIONS'],
      ['PUT', '/api/events/batch', 'POST, OPTIONS'],
      ['DELETE', '/api/products', 'GET, HEAD, PUT'],
      ['PUT', '/api/shop', 'GET, HEAD, DELETE'],
      ['POST', '/api/customers/c1', 'GET, HEAD, DELETE'],
      ['POST', '/api/products/1', 'GET, HEAD, DELETE'],
      ['POST', '/healthz', 'GET, HEAD'],
      ['DELETE', '/metrics', 'GET, HEAD'],
    ])('When %s %s, then 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
      const res = await t.fetch(path, { method, key: t.shop.secretKey });
      expect(res.headers.get('allow')).toBe(allow);
      await expectProblem(res, 405, 'method_not_allowed');
    });
  });

  describe('unsupported_media_type', () => {
    test.each([
      ['/api/events', 'POST', JSON.stringify(event())],
      ['/api/events/batch', 'POST', JSON.stringify({ events: [event()] })],
      ['/api/products', 'PUT', JSON.stringify({ products: [wireProduct('7')] })],
    ])('When %s gets Content-Type: application/xml, then 415 unsupported_media_type and nothing stored', async (path, method, body) => {
      const before = await eventCount();
      const res = await t.fetch(path, { method, key: method === 'PUT' ? t.shop.secretKey : undefined, body, headers: { 'content-type': 'application/xml' } });
      await expectProblem(res, 415, 'unsupported_media_type');
      expect(await eventCount()).toBe(before);
      expect(t.service.engines.get(t.shop.shopId).catalog.get('7')).toBeUndefined();
    });
  });

  describe('payload_too_large', () => {
    const padded = (bytes: number) => JSON.stringify(event({ metadata: { pad: 'x'.repeat(bytes) } }));

    test('When a single event body is over 64 KiB (content-length), then 413 payload_too_large', async () => {
      const before = await eventCount();
      const res = await t.fetch('/api/events', { method: 'POST', body: padded(64 * 1024) });
      await expectProblem(res, 413, 'payload_too_large');
      expect(await eventCount()).toBe(before);
    });

    test('When a batch body is over 512 KiB (content-length), then 413 payload_too_large and none stored', async () => {
      const before = await eventCount();
      const events = Array.from({ length: 100 }, (_, i) => event({ sessionId: `pad-${i}`, metadata: { pad: 'x'.repeat(5300) } }));
      const body = JSON.stringify({ events });
      expect(body.length).toBeGreaterThan(512 * 1024);
      const res = await t.fetch('/api/events/batch', { method: 'POST', body });
      await expectProblem(res, 413, 'payload_too_large');
      expect(await eventCount()).toBe(before);
    });

    test('When a body just under 64 KiB is sent, then the size cap does not refuse it', async () => {
      // Metadata over 1 KiB makes it invalid_event, which proves the body was read, not refused by size.
      const body = padded(60 * 1024);
      expect(body.length).toBeLessThan(64 * 1024);
      await expectProblem(await t.fetch('/api/events', { method: 'POST', body }), 400, 'invalid_event', '/metadata');
    });

    function chunked(text: string, chunkBytes = 16 * 1024): ReadableStream<Uint8Array> {
      const bytes = new TextEncoder().encode(text);
      let offset = 0;
      return new ReadableStream({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.subarray(offset, offset + chunkBytes));
          offset += chunkBytes;
        },
      });
    }

    test('When a chunked single event body (no content-length) goes over 64 KiB, then 413 payload_too_large', async () => {
      const before = await eventCount();
      const res = await t.fetch('/api/events', { method: 'POST', body: chunked(padded(80 * 1024)), duplex: 'half' } as RequestInit);
      await expectProblem(res, 413, 'payload_too_large');
      expect(await eventCount()).toBe(before);
    });

    test('When a chunked batch body (no content-length) goes over 512 KiB, then 413 payload_too_large', async () => {
      const before = await eventCount();
      const events = Array.from({ length: 100 }, (_, i) => event({ sessionId: `chunk-${i}`, metadata: { pad: 'x'.repeat(5300) } }));
      const res = await t.fetch('/api/events/batch', { method: 'POST', body: chunked(JSON.stringify({ events })), duplex: 'half' } as RequestInit);
      await expectProblem(res, 413, 'payload_too_large');
      expect(await eventCount()).toBe(before);
    });

    test('When a small chunked event body (no content-length) is sent, then it is accepted', async () => {
      const res = await t.fetch('/api/events', { method: 'POST', body: chunked(JSON.stringify(event()), 8), duplex: 'half' } as RequestInit);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true });
    });
  });
});
