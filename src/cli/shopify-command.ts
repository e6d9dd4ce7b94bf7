// `shopify sync`: a Shopify shop's collections, products and recent orders read from its Admin API
// and written into a data dir, or through a running server's API (--url, --key). Its place is kept
// in <data dir>/sync/shopify-<shopId>.json after every page, so a sync run again after an
// interruption goes on from there; a finished one starts over (and stores nothing twice).
import path from 'node:path';
import { AdminClient, adminApiUrl } from '../integrations/shopify/admin-client.js';
import { syncShop, type SyncState } from '../integrations/shopify/sync.js';
import type { SyncSink, SyncStateStore } from '../integrations/sync-sink.js';
import { fileStateStore, reportedSync, withSyncSink } from './sync-support.js';
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

function runSync(client: AdminClient, sink: SyncSink, domain: string, days: number, state: SyncStateStore<SyncState>): Promise<number> {
  const summary = { source: domain, api: 'Admin API', requests: () => client.requests, days, skipped: 'test or cancelled orders, custom items only' };
  return reportedSync(summary, async (hooks) => {
    const done = await syncShop({
      client,
      sink,
      domain,
      ordersDays: days,
      now: Date.now(),
      state,
      report: hooks.report,
      progress: { update: (phase, count, total) => hooks.progress(LABELS[phase]!, count, total) },
    });
    return { ...done, extra: [`collections: ${done.counts.collections}`] };
  });
}
