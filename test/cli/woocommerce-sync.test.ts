// `woocommerce sync` as a merchant runs it: the built CLI as a child process, reading a local
// stand-in of WooCommerce's REST API into a data dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cli, cliSync, stored } from '../support/cli.js';
import { generateWooStore, startWooStandIn, type WooStandIn } from '../support/woocommerce-stand-in.js';

const store = generateWooStore({ products: 300, orders: 400, now: Date.now(), days: 120 });
const since = Date.now() - 30 * 86_400_000;
const purchases = store.orders
  .filter((o) => Date.parse(`${String(o.date_created_gmt)}Z`) > since && ['processing', 'completed'].includes(o.status as string))
  .flatMap((o) => (o.line_items as { product_id: number }[]).filter((l) => l.product_id !== 0)).length;

describe('cli woocommerce sync', () => {
  let standIn: WooStandIn;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pairwise-woo-'));
  beforeAll(async () => {
    standIn = await startWooStandIn(store, { key: 'ck_cli', secret: 'cs_cli' });
  });
  afterAll(async () => {
    await standIn.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('When a store is synced into a data dir, then its products and the paid orders of the period are stored; run again, nothing more', async () => {
    expect(cliSync(['shop', 'create', 'woo', '--data-dir', dataDir]).status).toBe(0);
    const args = ['woocommerce', 'sync', 'woo', '--url', standIn.url, '--key', 'ck_cli', '--secret', 'cs_cli', '--orders-days', '30', '--data-dir', dataDir];
    const first = await cli(args);
    expect(first.stderr).not.toContain('error');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('products: 300 stored, 0 unchanged');
    expect(first.stdout).toContain(`purchases: ${purchases} stored, 0 already stored`);
    expect((await stored(dataDir, 'woo')).products).toHaveLength(300);
    const second = await cli(args);
    expect(second.stdout).toContain('products: 0 stored, 300 unchanged');
    expect(second.stdout).toContain(`purchases: 0 stored, ${purchases} already stored`);
  });

  test('When the keys are missing or wrong, then it says so and stores nothing', async () => {
    expect((await cli(['woocommerce', 'sync', 'woo', '--url', standIn.url, '--data-dir', dataDir])).status).toBe(2);
    const wrong = await cli(['woocommerce', 'sync', 'woo', '--url', standIn.url, '--key', 'ck_no', '--secret', 'cs_no', '--data-dir', dataDir]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('the consumer key and secret were not accepted');
  });
});
