import { afterAll, describe, expect, test } from 'vitest';
import { acceptedSecrets, nextConnection, type WebhookConnection } from '../../src/store/webhook-connection.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { ShopStore } from '../../src/store/shop-store.js';
import { product } from '../engine/fixtures.js';
import { tempDatabases } from '../support/temp-databases.js';

const HOUR = 3_600_000;
const connect = (source: string, secret: string, at: number) => ({ action: 'connect' as const, source, secret, at, graceMs: 48 * HOUR });

describe('nextConnection', () => {
  test('When a secret is rotated, then the previous one is accepted for the grace period and not after', () => {
    const first = nextConnection(undefined, connect('acme.myshopify.com', 'one', 0))!;
    expect(acceptedSecrets(first, 0)).toEqual(['one']);
    const rotated = nextConnection(first, connect('acme.myshopify.com', 'two', 10 * HOUR))!;
    expect(rotated).toMatchObject({ secret: 'two', previousSecret: 'one', previousUntil: 58 * HOUR, connectedAt: 0 });
    expect(acceptedSecrets(rotated, 57 * HOUR)).toEqual(['two', 'one']);
    expect(acceptedSecrets(rotated, 58 * HOUR)).toEqual(['two']);
    // The same secret again changes nothing.
    expect(nextConnection(rotated, connect('acme.myshopify.com', 'two', 11 * HOUR))).toBe(rotated);
  });

  test('When the app is uninstalled, then it says so until the shop connects again', () => {
    const connected = nextConnection(undefined, connect('acme.myshopify.com', 'one', 0))!;
    const gone = nextConnection(connected, { action: 'uninstalled', at: 5 })!;
    expect(gone.uninstalledAt).toBe(5);
    expect(nextConnection(gone, { action: 'uninstalled', at: 6 })).toBe(gone);
    expect(nextConnection(gone, connect('acme.myshopify.com', 'one', 7))!.uninstalledAt).toBeUndefined();
  });

  test('When data requests come, then each is kept once, newest first, at most 100', () => {
    let connection: WebhookConnection | undefined = nextConnection(undefined, connect('acme.myshopify.com', 'one', 0));
    for (let i = 0; i < 120; i++) connection = nextConnection(connection, { action: 'data-request', request: { customerId: `c${i}`, requestId: String(i % 110), requestedAt: i } });
    expect(connection!.dataRequests).toHaveLength(100);
    expect(connection!.dataRequests![0]).toEqual({ customerId: 'c119', requestId: '9', requestedAt: 119 });
    expect(new Set(connection!.dataRequests!.map((r) => r.requestId)).size).toBe(100);
  });
});

describe('a shop log with platform connections', () => {
  const { dbs, cleanup } = tempDatabases();
  const log = new LmdbShopLog(dbs);
  const shops = new ShopStore(dbs, log);
  afterAll(cleanup);

  test('When a second shop connects a domain another shop holds, then its record does not change, even told straight through the log', async () => {
    await shops.ensureShop('a');
    await shops.ensureShop('b');
    expect(await shops.changeConnection('a', 'shopify', connect('acme.myshopify.com', 'secret-a', 1))).toBe(true);
    expect(await shops.changeConnection('b', 'shopify', connect('acme.myshopify.com', 'secret-b', 2))).toBe(false);
    expect(shops.getShop('b')!.shopify).toBeUndefined();
    expect(await shops.changeConnection('a', 'shopify', { action: 'disconnect' })).toBe(true);
    expect(await shops.changeConnection('b', 'shopify', connect('acme.myshopify.com', 'secret-b', 3))).toBe(true);
    expect(shops.getShop('b')!.shopify!.source).toBe('acme.myshopify.com');
    // The same address on another platform is another store.
    expect(await shops.changeConnection('a', 'woocommerce', connect('acme.myshopify.com', 'secret-w', 4))).toBe(true);
  });

  test('When a command comes twice under one delivery id, then the second changes nothing, though the catalog changed between', async () => {
    await shops.ensureShop('c');
    const put = (title: string) => ({ kind: 'once' as const, deliveryId: 'shopify:d-1', command: { kind: 'put-products' as const, products: [product('p', { title })] } });
    expect(await log.append('c', put('first'), 1)).toMatchObject({ change: { kind: 'products' } });
    await log.append('c', { kind: 'remove-product', productId: 'p' }, 2);
    expect(await log.append('c', put('first'), 3)).toBeUndefined();
    expect(dbs.products.get(['c', 'p'])).toBeUndefined();
    // Another delivery id is taken.
    expect(await log.append('c', { ...put('second'), deliveryId: 'shopify:d-2' }, 4)).toMatchObject({ change: { kind: 'products' } });
  });
});
