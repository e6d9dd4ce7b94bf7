// `shopify sync`: a Shopify shop's collections, products and recent orders read from its Admin API
// and written into a data dir, or through a running server's API (--url, --key). Its place is kept
// in <data dir>/sync/shopify-<shopId>.json after every page, so a sync run again after an
// interruption goes on from there; a finished one starts over (and stores nothing twice).
import path from 'node:path';
import { AdminClient, adminApiUrl } from '../integrations/shopify/admin-client.js';
import { syncShop, type SyncState } from '../integrations/shopify/sync.js';
import type { SyncSink, SyncStateStore } from '../integrations/sync-sink.js';
import { progressBar, type Progress } from './progress.js';
import { fileStateStore, withSyncSink } from './sync-support.js';
import { UsageError } from './usage.js';

export interface ShopifyOptions {
  dataDir: string;
  domain?: string;
  token?: string;
  apiUrl?: string;
  ordersDays?: string;
  url?: string;
  key?: string;
}

const DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/i;
const DEFAULT_ORDERS_DAYS = 90;
/** Shopify's REST API lists orders of the last 60 days unless the app has read_all_orders: allowed, but said. */
const MAX_ORDERS_DAYS = 3650;

export async function shopifyCommand(action: string | undefined, args: string[], options: ShopifyOptions): Promise<number> {
  if (action !== 'sync') throw new UsageError(`unknown command "shopify ${action ?? ''}"`.trim());
  const shopId = args[0];
  if (shopId === undefined || args.length !== 1) throw new UsageError('shopify sync needs a shop id');
  if (options.domain === undefined || !DOMAIN.test(options.domain)) throw new UsageError('shopify sync needs --domain <shop>.myshopify.com');
  if (options.token === undefined || options.token === '') throw new UsageError('shopify sync needs --token with the Admin API access token of the shop\'s custom app (shpat_…)');
  const days = Number(options.ordersDays ?? DEFAULT_ORDERS_DAYS);
  if (!Number.isInteger(days) || days < 0 || days > MAX_ORDERS_DAYS) throw new UsageError(`--orders-days must be whole days from 0 to ${MAX_ORDERS_DAYS}`);
  const apiUrl = options.apiUrl ?? adminApiUrl(options.domain.toLowerCase());
  if (!/^https?:\/\/[^/]/i.test(apiUrl) || !URL.canParse(apiUrl)) throw new UsageError(`--api-url must be an http:// or https:// address, not "${apiUrl}"`);
  const client = new AdminClient({ apiUrl, accessToken: options.token });
  const state = fileStateStore<SyncState>(path.join(options.dataDir, 'sync', `shopify-${shopId}.json`));
  const target = { dataDir: options.dataDir, server: options.url, serverKey: options.key, serverFlags: '--url and --key' };
  return withSyncSink(target, shopId, (sink) => runSync(client, sink, options.domain!.toLowerCase(), days, state));
}

const LABELS: Record<string, string> = {
  'custom-collections': 'collections',
  'smart-collections': 'collections',
  members: 'collection members',
  products: 'products',
  orders: 'orders',
};

async function runSync(client: AdminClient, sink: SyncSink, domain: string, days: number, state: SyncStateStore<SyncState>): Promise<number> {
  let bar: { phase: string; progress: Progress } | undefined;
  const lines: string[] = [];
  const started = performance.now();
  try {
    const { counts, resumed } = await syncShop({
      client,
      sink,
      domain,
      ordersDays: days,
      now: Date.now(),
      state,
      report: (line) => (bar === undefined ? lines.push(line) : bar.progress.log(line)),
      progress: {
        update(phase, done, total) {
          if (bar?.phase !== LABELS[phase]) {
            bar?.progress.stop();
            bar = { phase: LABELS[phase]!, progress: progressBar(LABELS[phase]!.padEnd(18), total ?? 0) };
          }
          bar.progress.update(done, total === undefined ? 0 : done);
        },
      },
    });
    bar?.progress.stop();
    for (const line of lines) console.error(line);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${domain}: ${resumed ? 'resumed and ' : ''}synced in ${seconds} s (${client.requests} Admin API requests)`);
    console.log(`  collections: ${counts.collections}`);
    console.log(`  products: ${counts.products} stored, ${counts.productsUnchanged} unchanged`);
    console.log(`  orders (last ${days} days): ${counts.orders} read, ${counts.ordersSkipped} without purchases (test or cancelled orders, custom items only)`);
    console.log(`  purchases: ${counts.purchases} stored, ${counts.purchasesAlreadyStored} already stored`);
    if (counts.refused > 0) console.log(`  refused: ${counts.refused} (see above)`);
    return counts.refused > 0 ? 1 : 0;
  } catch (error) {
    bar?.progress.stop();
    throw new Error(`${(error as Error).message}\nthe sync stopped; what was read so far is stored: run the same command again to go on from there`);
  }
}
