// A WooCommerce store connected through the API and fed by its signed webhooks, against the real
// server and LMDB: deliveries as WooCommerce sends them (X-WC-Webhook-* headers, the base64
// HMAC-SHA256 of the exact bytes, the documented payloads), the unsigned ping a saved webhook sends,
// orders that count once whatever their updates, and bad deliveries refused with nothing stored.
import { createHmac, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { platformFixture, platformFixtureBytes } from '../integrations/fixtures.js';
import { deliveryOutcome as outcome } from '../support/deliveries.js';
import { expectProblem } from '../support/problem.js';
import { storedEvents } from '../support/stored-events.js';
import { ids, newShop, recommendations, startTestService, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-10-26T12:00:00Z');
const STORE = 'https://shop.example';
const SECRET = 'wc-webhook-secret-0123';

const sign = (body: Buffer | string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('base64');
const fixtureBytes = (name: string) => platformFixtureBytes('woocommerce', name);
const fixture = (name: string) => platformFixture<Record<string, unknown>>('woocommerce', name);

function deliver(t: TestService, topic: string, body: Buffer | string, options: { secret?: string; source?: string; signature?: string | null; id?: string } = {}): Promise<Response> {
  const [resource, event] = topic.split('.');
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-wc-webhook-source': options.source ?? `${STORE}/`,
    'x-wc-webhook-topic': topic,
    'x-wc-webhook-resource': resource!,
    'x-wc-webhook-event': event!,
    'x-wc-webhook-id': '17',
    'x-wc-webhook-delivery-id': options.id ?? randomUUID().replace(/-/g, ''),
  };
  if (options.signature !== null) headers['x-wc-webhook-signature'] = options.signature ?? sign(body, options.secret);
  return fetch(`${t.url}/webhooks/woocommerce`, { method: 'POST', headers, body });
}

describe('WooCommerce: connection and webhooks', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });
  const start = async () => {
    const t = await startTestService({ clock: () => NOW });
    started.push(t);
    expect((await t.fetch('/api/integrations/woocommerce', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ storeUrl: STORE, webhookSecret: SECRET }) })).status).toBe(200);
    return t;
  };

  test('When a store connects, then GET shows its address and never the secret; an address that is not http(s) or one another shop holds is refused', async () => {
    const t = await start();
    const view = await (await t.fetch('/api/integrations/woocommerce', { key: t.shop.secretKey })).json();
    expect(view).toEqual({ connected: true, storeUrl: STORE, connectedAt: new Date(NOW).toISOString() });
    const bad = await t.fetch('/api/integrations/woocommerce', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ storeUrl: 'ftp://shop.example', webhookSecret: SECRET }) });
    await expectProblem(bad, 400, 'invalid_integration');
    const other = newShop('shop-b');
    await t.service.shops.ensureShop(other.shopId);
    await t.service.shops.addKey(other.shopId, other.secretKey);
    const taken = await t.fetch('/api/integrations/woocommerce', { method: 'PUT', key: other.secretKey, body: JSON.stringify({ storeUrl: `${STORE}/`, webhookSecret: SECRET }) });
    await expectProblem(taken, 409, 'integration_taken');
  });

  test("When the webhook is saved, then its unsigned ping is answered 200 and stores nothing", async () => {
    const t = await start();
    const res = await fetch(`${t.url}/webhooks/woocommerce`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'webhook_id=17' });
    expect(await outcome(res)).toBe('ignored');
    expect(storedEvents(t.service.dbs, t.shop.shopId)).toEqual([]);
  });

  test('When products and a paid order are delivered, then they are taken once; the order updated again counts nothing more; cancelled, it is taken back', async () => {
    const t = await start();
    expect(await outcome(await deliver(t, 'product.created', fixtureBytes('product')))).toBe('applied');
    const second = fixture('product');
    second.id = 93;
    second.name = 'Ship Your Idea';
    expect(await outcome(await deliver(t, 'product.created', JSON.stringify(second)))).toBe('applied');
    const third = { ...second, id: 22, name: 'Woo Album' };
    expect(await outcome(await deliver(t, 'product.created', JSON.stringify(third)))).toBe('applied');
    expect((await t.fetch('/api/products/794', { key: t.shop.secretKey })).status).toBe(200);

    const deliveryId = 'a1b2c3';
    expect(await outcome(await deliver(t, 'order.created', fixtureBytes('order'), { id: deliveryId }))).toBe('applied');
    expect(await outcome(await deliver(t, 'order.created', fixtureBytes('order'), { id: deliveryId }))).toBe('duplicate');
    expect(await outcome(await deliver(t, 'order.updated', fixtureBytes('order')))).toBe('duplicate');
    const purchases = storedEvents(t.service.dbs, t.shop.shopId).filter((e) => e.event.type === 'purchase');
    expect(purchases.map((e) => e.event.productId).sort()).toEqual(['22', '93']);
    expect(ids(await recommendations(t, 'strategy=bought-together&productId=93', t.shop.publicKey))).toContain('22');

    const cancelled = { ...fixture('order'), status: 'cancelled' };
    expect(await outcome(await deliver(t, 'order.updated', JSON.stringify(cancelled)))).toBe('applied');
    expect(await outcome(await deliver(t, 'product.deleted', fixtureBytes('product-deleted')))).toBe('applied');
    expect((await t.fetch('/api/products/794', { key: t.shop.secretKey })).status).toBe(404);
  });

  test('When a delivery is unsigned, signed with another secret, from an unknown store, not JSON or not its payload, then it is refused and nothing is stored; an unknown topic is answered 200', async () => {
    const t = await start();
    const body = fixtureBytes('product');
    await expectProblem(await deliver(t, 'product.created', body, { signature: null }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'product.created', body, { secret: 'another-secret' }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'product.created', body, { source: 'https://elsewhere.example/' }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'product.created', 'not json'), 400, 'invalid_json');
    await expectProblem(await deliver(t, 'order.created', '{"id":"seven"}'), 400, 'invalid_webhook');
    expect((await t.fetch('/api/products/794', { key: t.shop.secretKey })).status).toBe(404);
    expect(storedEvents(t.service.dbs, t.shop.shopId)).toEqual([]);
    expect(await outcome(await deliver(t, 'coupon.created', '{"id":5}'))).toBe('ignored');
  });
});
