// A Shopify shop connected through the API and fed by its signed webhooks, against the real server
// and LMDB: deliveries as Shopify sends them (its headers, the base64 HMAC-SHA256 of the exact bytes,
// the documented payloads), each taken once, the bad ones refused with problem+json and nothing
// stored, and the compliance topics erasing what they name.
import { createHmac, randomUUID } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { deliveryOutcome as outcome } from '../support/deliveries.js';
import { expectProblem } from '../support/problem.js';
import { storedEvents } from '../support/stored-events.js';
import { newShop, recommendations, ids, startTestService, type TestService } from '../support/service.js';
import { fixture, fixtureBytes } from '../integrations/shopify/fixtures.js';

const NOW = Date.parse('2025-10-05T12:00:00Z');
const DOMAIN = 'acme.myshopify.com';
const SECRET = 'shpss_0123456789abcdef';

const sign = (body: Buffer | string, secret = SECRET) => createHmac('sha256', secret).update(body).digest('base64');

interface Delivery {
  secret?: string;
  domain?: string | null;
  id?: string;
  hmac?: string | null;
}

function deliver(t: TestService, topic: string, body: Buffer | string, options: Delivery = {}): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-shopify-topic': topic, 'x-shopify-webhook-id': options.id ?? randomUUID(), 'x-shopify-api-version': '2025-10' };
  if (options.domain !== null) headers['x-shopify-shop-domain'] = options.domain ?? DOMAIN;
  if (options.hmac !== null) headers['x-shopify-hmac-sha256'] = options.hmac ?? sign(body, options.secret);
  return fetch(`${t.url}/webhooks/shopify`, { method: 'POST', headers, body });
}

async function connect(t: TestService, body: Record<string, unknown> = { shopDomain: DOMAIN, webhookSecret: SECRET }, key = t.shop.secretKey): Promise<Response> {
  return t.fetch('/api/integrations/shopify', { method: 'PUT', key, body: JSON.stringify(body) });
}

describe('Shopify: connection and webhooks', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });
  const start = async () => {
    const t = await startTestService({ clock: () => NOW });
    started.push(t);
    return t;
  };

  test('When a shop connects, then GET shows the domain and never the secret; a bad body, the public key or a domain another shop holds are refused', async () => {
    const t = await start();
    await expectProblem(await connect(t, { shopDomain: DOMAIN, webhookSecret: SECRET }, t.shop.publicKey), 403, 'forbidden');
    await expectProblem(await connect(t, { shopDomain: 'acme.example.com', webhookSecret: SECRET }), 400, 'invalid_integration');
    await expectProblem(await connect(t, { shopDomain: DOMAIN, webhookSecret: 'short' }), 400, 'invalid_integration');
    const before = await (await t.fetch('/api/integrations/shopify', { key: t.shop.secretKey })).json();
    expect(before).toMatchObject({ connected: false });

    const res = await connect(t, { shopDomain: 'ACME.myshopify.com', webhookSecret: SECRET });
    expect(res.status).toBe(200);
    const view = await (await t.fetch('/api/integrations/shopify', { key: t.shop.secretKey })).json();
    expect(view).toEqual({ connected: true, shopDomain: DOMAIN, connectedAt: new Date(NOW).toISOString(), dataRequests: [] });
    expect(JSON.stringify(view)).not.toContain(SECRET);

    const other = newShop('shop-b');
    await t.service.shops.ensureShop(other.shopId);
    await t.service.shops.addKey(other.shopId, other.secretKey);
    await expectProblem(await connect(t, { shopDomain: DOMAIN, webhookSecret: 'another-secret-1' }, other.secretKey), 409, 'integration_taken');
  });

  test('When products and orders are delivered, then the catalog and the models take them once each, whatever the delivery ids', async () => {
    const t = await start();
    await connect(t);
    const deliveryId = randomUUID();
    expect(await outcome(await deliver(t, 'products/create', fixtureBytes('product'), { id: deliveryId }))).toBe('applied');
    expect(await outcome(await deliver(t, 'products/create', fixtureBytes('product'), { id: deliveryId }))).toBe('duplicate');
    const product = (await (await t.fetch('/api/products/632910392', { key: t.shop.secretKey })).json()) as { title: string };
    expect(product.title).toBe('IPod Nano - 8GB');
    // The same product again under another delivery id: same source time, same content, nothing stored.
    expect(await outcome(await deliver(t, 'products/update', fixtureBytes('product')))).toBe('unchanged');
    const other = fixture('product');
    other.id = 921728736;
    other.title = 'IPod Touch 8GB';
    expect(await outcome(await deliver(t, 'products/create', JSON.stringify(other)))).toBe('applied');

    expect(await outcome(await deliver(t, 'orders/paid', fixtureBytes('order')))).toBe('applied');
    // orders/create and orders/paid of the same order, or a retry under a new id: its lines count once.
    expect(await outcome(await deliver(t, 'orders/create', fixtureBytes('order')))).toBe('duplicate');
    const purchases = storedEvents(t.service.dbs, t.shop.shopId).filter((e) => e.event.type === 'purchase');
    // Two product lines; the custom item (no product_id) is not a product.
    expect(purchases.map((e) => e.event.productId).sort()).toEqual(['632910392', '921728736']);
    expect(purchases.every((e) => e.event.customerId === '207119551')).toBe(true);

    const together = await recommendations(t, 'strategy=bought-together&productId=632910392', t.shop.publicKey);
    expect(ids(together)).toContain('921728736');
  });

  test('When an order comes without a customer or with ids as strings, then its purchases are taken; an order cancelled is taken back', async () => {
    const t = await start();
    await connect(t);
    const order = fixture<Record<string, unknown>>('order');
    delete order.customer;
    order.id = '450789470';
    expect(await outcome(await deliver(t, 'orders/paid', JSON.stringify(order)))).toBe('applied');
    const stored = storedEvents(t.service.dbs, t.shop.shopId).filter((e) => e.event.type === 'purchase');
    expect(stored).toHaveLength(2);
    expect(stored.every((e) => e.event.customerId === undefined || e.event.customerId === null)).toBe(true);
    const cancelled = { ...order, cancelled_at: '2025-10-04T10:00:00-04:00', cancel_reason: 'customer' };
    expect(await outcome(await deliver(t, 'orders/cancelled', JSON.stringify(cancelled)))).toBe('applied');
  });

  test('When a delivery is unsigned, signed with another secret, names an unknown shop, is not JSON, is not its payload, or is too big, then it is refused and nothing is stored', async () => {
    const t = await start();
    await connect(t);
    const body = fixtureBytes('product');
    await expectProblem(await deliver(t, 'products/create', body, { hmac: null }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'products/create', body, { secret: 'not-the-secret' }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'products/create', body, { domain: 'other.myshopify.com' }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'products/create', body, { domain: null }), 401, 'unauthorized');
    // A signature over other bytes: one changed byte.
    const tampered = Buffer.from(body);
    tampered[tampered.indexOf('8GB')] = 0x39;
    await expectProblem(await deliver(t, 'products/create', tampered, { hmac: sign(body) }), 401, 'unauthorized');
    await expectProblem(await deliver(t, 'products/create', '{"id": 1, "title": '), 400, 'invalid_json');
    await expectProblem(await deliver(t, 'products/create', '{"id": "x"}'), 400, 'invalid_webhook');
    await expectProblem(await deliver(t, 'orders/paid', '[]'), 400, 'invalid_webhook');
    const huge = Buffer.concat([Buffer.from('{"padding":"'), Buffer.alloc(2 * 1024 * 1024, 0x61), Buffer.from('"}')]);
    await expectProblem(await deliver(t, 'products/create', huge), 413, 'payload_too_large');
    expect((await t.fetch('/api/products/632910392', { key: t.shop.secretKey })).status).toBe(404);
    expect(storedEvents(t.service.dbs, t.shop.shopId)).toEqual([]);

    // A topic Pairwise does not take is answered 200, so Shopify does not retry it.
    expect(await outcome(await deliver(t, 'carts/update', '{"id":"abc"}'))).toBe('ignored');
    // Counted: the unknown topic as `other`, the refused bodies by their topic; unsigned ones are not the shop's.
    const metrics = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
    const delivered = (topic: string, outcome: string) => new RegExp(`^pairwise_webhook_deliveries_total\\{[^}]*topic="${topic}"[^}]*outcome="${outcome}"[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1];
    expect(delivered('other', 'ignored')).toBe('1');
    expect(delivered('products/create', 'refused')).toBe('2');
    expect(delivered('orders/paid', 'refused')).toBe('1');
  });

  test('When the secret is rotated, then the previous one is taken for 48 hours; when the shop disconnects, then every delivery is refused', async () => {
    let now = NOW;
    const t = await startTestService({ clock: () => now });
    started.push(t);
    await connect(t);
    expect((await connect(t, { shopDomain: DOMAIN, webhookSecret: 'shpss_rotated_secret' })).status).toBe(200);
    const view = (await (await t.fetch('/api/integrations/shopify', { key: t.shop.secretKey })).json()) as { previousSecretValidUntil: string };
    expect(view.previousSecretValidUntil).toBe(new Date(NOW + 48 * 3_600_000).toISOString());
    expect(await outcome(await deliver(t, 'products/create', fixtureBytes('product')))).toBe('applied');
    expect(await outcome(await deliver(t, 'products/update', fixtureBytes('product'), { secret: 'shpss_rotated_secret' }))).toBe('unchanged');
    now = NOW + 49 * 3_600_000;
    await expectProblem(await deliver(t, 'products/update', fixtureBytes('product')), 401, 'unauthorized');

    expect((await t.fetch('/api/integrations/shopify', { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
    await expectProblem(await deliver(t, 'products/update', fixtureBytes('product'), { secret: 'shpss_rotated_secret' }), 401, 'unauthorized');
  });

  test('When a customer is redacted, then their events leave the log and their export; a data request is listed; after an uninstall only compliance topics are taken; shop/redact erases the shop', async () => {
    const t = await start();
    await connect(t);
    expect(await outcome(await deliver(t, 'products/create', fixtureBytes('product')))).toBe('applied');
    expect(await outcome(await deliver(t, 'orders/paid', fixtureBytes('order')))).toBe('applied');
    const exported = async () => (await (await t.fetch('/api/customers/207119551', { key: t.shop.secretKey })).json()) as { events: unknown[] };
    expect((await exported()).events).toHaveLength(2);

    expect(await outcome(await deliver(t, 'customers/data_request', fixtureBytes('customers-data-request')))).toBe('applied');
    const view = (await (await t.fetch('/api/integrations/shopify', { key: t.shop.secretKey })).json()) as { dataRequests: { customerId: string; export: string }[] };
    expect(view.dataRequests).toEqual([expect.objectContaining({ customerId: '207119551', export: '/api/customers/207119551' })]);

    expect(await outcome(await deliver(t, 'customers/redact', fixtureBytes('customers-redact')))).toBe('applied');
    expect((await exported()).events).toEqual([]);
    expect(storedEvents(t.service.dbs, t.shop.shopId).some((e) => e.event.customerId === '207119551')).toBe(false);

    expect(await outcome(await deliver(t, 'app/uninstalled', fixtureBytes('app-uninstalled')))).toBe('applied');
    expect(await outcome(await deliver(t, 'orders/paid', fixtureBytes('order')))).toBe('ignored');
    expect(((await (await t.fetch('/api/integrations/shopify', { key: t.shop.secretKey })).json()) as { connected: boolean }).connected).toBe(false);

    expect(await outcome(await deliver(t, 'shop/redact', fixtureBytes('shop-redact')))).toBe('applied');
    expect((await t.fetch('/api/recommendations?strategy=trending', { key: t.shop.publicKey })).status).toBe(401);
  });
});
