// Rules on live lists: a rule put or removed pushes the changed list to subscribers, pinned items
// carrying their ruleId in the frame as in GET /api/recommendations.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, recommendations, startTestService, withoutRecId, wireProduct, type TestService } from '../support/service.js';
import { productIds, StreamClient, type Message } from './stream-client.js';

const isPush = (sub: string) => (m: Message) => m.op === 'recommendations' && m.sub === sub && m.ref === undefined;

describe('stream subscriptions and rules', () => {
  let t: TestService;
  let client: StreamClient | undefined;

  beforeEach(async () => {
    t = await startTestService();
    await putProducts(t, Array.from({ length: 6 }, (_, i) => wireProduct(String(i + 1))));
    await postEvents(t, Array.from({ length: 6 }, (_, i) => ({ type: 'purchase', productId: String(1 + (i % 3)), sessionId: `b${i}` })));
  });
  afterEach(async () => {
    client?.close();
    await t.cleanup();
  });

  test('When a rule pins a product, then the subscriber gets a push with it at its position and its ruleId; when the rule goes, a push without it', async () => {
    client = await StreamClient.open(t.url, t.shop.publicKey, { binary: false });
    const { sub } = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 3 } });

    const put = await t.fetch('/api/rules/campaign', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ then: { pin: [{ productId: '6', position: 1 }] } }) });
    expect(put.status).toBe(201);
    const push = await client.next(isPush(sub), 3_000);
    expect(productIds(push as { products: { id: string }[] })[0]).toBe('6');
    expect(push.products[0]).toMatchObject({ strategy: 'trending', ruleId: 'campaign' });
    expect(withoutRecId({ products: push.products, meta: push.meta })).toEqual(await recommendations(t, 'strategy=trending&limit=3'));

    expect((await t.fetch('/api/rules/campaign', { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
    const after = await client.next(isPush(sub), 3_000);
    expect(productIds(after as { products: { id: string }[] })).not.toContain('6');
  });

  test('When a rule starts a moment later, then the subscriber gets a push at that instant with nothing else changing, and another when it ends', async () => {
    client = await StreamClient.open(t.url, t.shop.publicKey, { binary: false });
    const { sub, products } = await client.request({ op: 'subscribe', ref: 1, query: { strategy: 'trending', limit: 3 } });
    const first = productIds({ products } as { products: { id: string }[] })[0]!;
    const from = Date.now() + 1_500;
    const put = await t.fetch('/api/rules/soon', {
      method: 'PUT',
      key: t.shop.secretKey,
      body: JSON.stringify({ from: new Date(from).toISOString(), until: new Date(from + 1_500).toISOString(), then: { pin: [{ productId: '6', position: 1 }] } }),
    });
    expect(put.status).toBe(201);
    const started = await client.next(isPush(sub), 4_000);
    expect(Date.now()).toBeGreaterThanOrEqual(from);
    expect(productIds(started as { products: { id: string }[] })[0]).toBe('6');
    const ended = await client.next(isPush(sub), 4_000);
    expect(Date.now()).toBeGreaterThanOrEqual(from + 1_500);
    expect(productIds(ended as { products: { id: string }[] })[0]).toBe(first);
  });
});
