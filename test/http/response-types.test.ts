// Real answers of the server checked against the response types the OpenAPI document's schemas are
// generated from (typia assertEquals: no field missing, none extra), so the document cannot drift
// from what is sent: the recommendation body is assembled as text, the others typed.
import typia from 'typia';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CatalogPage, CatalogProduct, Health, ProductDeleted, ProductsUpserted, RecommendationResponse, ShopInfo, ShopModel } from '../../src/api/responses.js';
import { STRATEGIES } from '../../src/engine/strategy.js';
import type { ProblemBody } from '../../src/errors.js';
import type { BatchResponse, EventAck } from '../../src/app/track-events.js';
import type { RecommendationsMessage, ServerMessage } from '../../src/ws/protocol.js';
import { customerToken, postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';

async function body<T>(res: Response, status: number, check: (input: unknown) => T): Promise<T> {
  const text = await res.text();
  expect(res.status, text).toBe(status);
  return check(JSON.parse(text));
}

describe('answers match their documented types', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t.cleanup());

  test('When the catalog is written, read and deleted, then each answer is its type', async () => {
    const put = t.fetch('/api/products', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ products: [wireProduct('1', { tags: ['a'], repurchasable: true }), wireProduct('2', { image: null, price: 3 }), wireProduct('3')] }) });
    await body(await put, 200, typia.createAssertEquals<ProductsUpserted>());
    await body(await t.fetch('/api/products/1', { key: t.shop.secretKey }), 200, typia.createAssertEquals<CatalogProduct>());
    await body(await t.fetch(`/api/products/${encodeURIComponent('gid://shopify/Product/2')}`, { key: t.shop.secretKey }), 200, typia.createAssertEquals<CatalogProduct>());
    await putProducts(t, [wireProduct('9')]);
    await body(await t.fetch('/api/products/9', { method: 'DELETE', key: t.shop.secretKey }), 200, typia.createAssertEquals<ProductDeleted>());
    const page = await body(await t.fetch('/api/products?limit=2', { key: t.shop.secretKey }), 200, typia.createAssertEquals<CatalogPage>());
    expect(page.nextCursor).not.toBeNull();
    const last = await body(await t.fetch(`/api/products?cursor=${page.nextCursor}`, { key: t.shop.secretKey }), 200, typia.createAssertEquals<CatalogPage>());
    expect(last.nextCursor).toBeNull();
    await body(await t.fetch('/api/shop', { key: t.shop.secretKey }), 200, typia.createAssertEquals<ShopInfo>());
    await body(await t.fetch('/api/shop/model', { key: t.shop.secretKey }), 200, typia.createAssertEquals<ShopModel>());
  });

  test('When events are sent, then the acks and the batch report are their types', async () => {
    const event = { type: 'purchase', productId: '1', sessionId: 's1', messageId: 'm1' };
    await body(await t.fetch('/api/events', { method: 'POST', body: JSON.stringify(event) }), 200, typia.createAssertEquals<EventAck>());
    const duplicate = await body(await t.fetch('/api/events', { method: 'POST', body: JSON.stringify(event) }), 200, typia.createAssertEquals<EventAck>());
    expect(duplicate.duplicate).toBe(true);
    const batch = { events: [{ type: 'add_to_cart', productId: '2', sessionId: 's1' }, event, { type: 'nope', productId: '1', sessionId: 's1' }] };
    const report = await body(await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify(batch) }), 200, typia.createAssertEquals<BatchResponse>());
    expect([report.accepted, report.duplicates, report.rejected]).toEqual([1, 1, 1]);
  });

  test('When recommendations are asked for with every strategy, then each answer (backfill included) is a RecommendationResponse', async () => {
    await postEvents(t, [
      { type: 'purchase', productId: '1', sessionId: 's2', customerId: 'c1' },
      { type: 'purchase', productId: '2', sessionId: 's2', customerId: 'c1' },
      { type: 'view', productId: '3', sessionId: 's2', customerId: 'c1' },
    ], t.shop.secretKey);
    const assertBody = typia.createAssertEquals<RecommendationResponse>();
    const context = `productId=1&collectionId=c1&sessionId=s2&customerId=c1&customerToken=${encodeURIComponent(customerToken(t.shop, 'c1'))}`;
    let fellBack = false;
    for (const query of ['', 'productId=1', 'limit=1', 'productIds=1,2,3', ...STRATEGIES.map((s) => `strategy=${s}&${context}`)]) {
      const answer = await body(await t.fetch(`/api/recommendations?${query}`), 200, assertBody);
      fellBack ||= answer.meta.fallback;
    }
    expect(fellBack, 'some answer came from a backfill chain').toBe(true);
  });

  test('When a subscription is answered over the WebSocket, then the frames are their documented types', async () => {
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    try {
      client.send({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 2 } });
      const { __binary, __at, ...list } = await client.next((m) => m.op === 'recommendations');
      typia.assertEquals<RecommendationsMessage>(list);
      client.send({ op: 'ping', ref: 2 });
      const { __binary: _b, __at: _a, ...pong } = await client.next((m) => m.op === 'pong');
      typia.assertEquals<ServerMessage>(pong);
    } finally {
      client.socket.close();
      await client.closed;
    }
  });

  test('When requests fail, then each problem body is a ProblemBody', async () => {
    const assertProblem = typia.createAssertEquals<ProblemBody>();
    await body(await t.fetch('/api/recommendations?limit=99'), 400, assertProblem);
    await body(await t.fetch('/api/recommendations', { key: 'pk_unknown' }), 401, assertProblem);
    await body(await t.fetch('/api/products/1'), 403, assertProblem);
    await body(await t.fetch('/api/nowhere'), 404, assertProblem);
    await body(await t.fetch('/api/events', { method: 'POST', body: '{"type":1}' }), 400, assertProblem);
    await body(await t.fetch('/healthz', { key: null }), 200, typia.createAssertEquals<Health>());
  });
});
