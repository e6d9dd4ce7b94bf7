// `shopify sync` as a merchant runs it: the built CLI as a child process, reading a local stand-in of
// Shopify's Admin API, into a data dir and through a running server's API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, cliSync, stored } from '../support/cli.js';
import { startTestService, type TestService } from '../support/service.js';
import { generateShop, startShopifyStandIn, type StandIn } from '../support/shopify-stand-in.js';

const TOKEN = 'shpat_cli';
const shop = generateShop({ products: 1000, orders: 2000, now: Date.now(), days: 120 });
/** Product lines of the orders of the last 90 days that are neither test nor cancelled orders: the purchases a sync stores. */
const since = Date.now() - 90 * 86_400_000;
const purchases = shop.orders
  .filter((o) => Date.parse(o.created_at as string) >= since && o.test !== true && o.cancelled_at === null)
  .flatMap((o) => (o.line_items as { product_id: number | null }[]).filter((l) => l.product_id !== null)).length;

describe('cli shopify sync', () => {
  let standIn: StandIn;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pairwise-shopify-'));
  beforeAll(async () => {
    standIn = await startShopifyStandIn(shop, { accessToken: TOKEN });
  });
  afterAll(async () => {
    await standIn.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const sync = (...args: string[]) => cli(['shopify', 'sync', ...args, '--domain', 'acme.myshopify.com', '--token', TOKEN, '--api-url', standIn.apiUrl]);

  test('When a shop is synced into a data dir, then its products and the purchases of the last 90 days are stored, and a second run stores nothing', async () => {
    expect(cliSync(['shop', 'create', 'acme', '--data-dir', dataDir]).status).toBe(0);
    const first = await sync('acme', '--data-dir', dataDir);
    expect(first.stderr).not.toContain('error');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('products: 1000 stored, 0 unchanged');
    expect(first.stdout).toContain(`purchases: ${purchases} stored, 0 already stored`);
    const data = await stored(dataDir, 'acme');
    expect(data.products).toHaveLength(1000);
    expect(data.events).toHaveLength(purchases);
    expect(data.events.every((e) => e.sender === 'secret' && e.type === 'purchase')).toBe(true);

    const second = await sync('acme', '--data-dir', dataDir);
    expect(second.status).toBe(0);
    expect(second.stdout).toContain('products: 0 stored, 1000 unchanged');
    expect(second.stdout).toContain(`purchases: 0 stored, ${purchases} already stored`);
    expect((await stored(dataDir, 'acme')).events).toHaveLength(purchases);
  });

  test('When the command line lacks the domain or token, or names an unknown shop, then it says so and syncs nothing', async () => {
    expect((await cli(['shopify', 'sync', 'acme', '--token', TOKEN, '--data-dir', dataDir])).status).toBe(2);
    expect((await cli(['shopify', 'sync', 'acme', '--domain', 'acme.example.com', '--token', TOKEN, '--data-dir', dataDir])).stderr).toContain('--domain <shop>.myshopify.com');
    expect((await cli(['shopify', 'sync', 'acme', '--domain', 'acme.myshopify.com', '--data-dir', dataDir])).status).toBe(2);
    const unknown = await sync('nope', '--data-dir', dataDir);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('unknown shop "nope"');
    const badToken = await cli(['shopify', 'sync', 'acme', '--domain', 'acme.myshopify.com', '--token', 'shpat_wrong', '--api-url', standIn.apiUrl, '--data-dir', dataDir]);
    expect(badToken.status).toBe(1);
    expect(badToken.stderr).toContain('the access token was not accepted');
  });

  describe('through a running server', () => {
    let server: TestService;
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'pairwise-shopify-url-'));
    beforeAll(async () => {
      server = await startTestService();
    });
    afterAll(async () => {
      await server.cleanup();
      rmSync(elsewhere, { recursive: true, force: true });
    });

    test('When synced with --url and the shop\'s key, then the running server has the catalog and the purchases at once', async () => {
      const before = server.service.engines.get(server.shop.shopId).eventCount;
      const result = await sync(server.shop.shopId, '--url', server.url, '--key', server.shop.secretKey, '--data-dir', elsewhere);
      expect(result.stderr).not.toContain('error');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(`purchases: ${purchases} stored`);
      const engine = server.service.engines.get(server.shop.shopId);
      expect(engine.catalog.size).toBe(1000);
      expect(engine.eventCount - before).toBe(purchases);
    });

    test('When the key belongs to another shop than the one named, then nothing is synced', async () => {
      const result = await sync('other-shop', '--url', server.url, '--key', server.shop.secretKey, '--data-dir', elsewhere);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`--key belongs to shop "${server.shop.shopId}"`);
    });
  });
});
