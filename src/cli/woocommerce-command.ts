// `woocommerce sync`: a WooCommerce store's products and recent orders read from its REST API and
// written into a data dir, or through a running server's API (--server, --server-key). Its place is
// kept in <data dir>/sync/woocommerce-<shopId>.json after every page: run again after an interruption
// it goes on from there; a finished one starts over (and stores nothing twice).
import path from 'node:path';
import { syncWooStore, type WooSyncState } from '../integrations/woocommerce/sync.js';
import { WooRestClient } from '../integrations/woocommerce/rest-client.js';
import { fileStateStore, reportedSync, withSyncSink } from './sync-support.js';
import { UsageError } from './usage.js';

export interface WooOptions {
  dataDir: string;
  url?: string;
  key?: string;
  secret?: string;
  ordersDays?: string;
  server?: string;
  serverKey?: string;
}

const DEFAULT_ORDERS_DAYS = 90;
const MAX_ORDERS_DAYS = 3650;

export async function woocommerceCommand(action: string | undefined, args: string[], options: WooOptions): Promise<number> {
  if (action !== 'sync') throw new UsageError(`unknown command "woocommerce ${action ?? ''}"`.trim());
  const shopId = args[0];
  if (shopId === undefined || args.length !== 1) throw new UsageError('woocommerce sync needs a shop id');
  if (options.url === undefined || !/^https?:\/\/[^/]/i.test(options.url) || !URL.canParse(options.url)) throw new UsageError('woocommerce sync needs --url with the store\'s address (https://shop.example)');
  if (!options.key?.startsWith('ck_') || !options.secret?.startsWith('cs_')) throw new UsageError('woocommerce sync needs --key ck_… and --secret cs_… (WooCommerce → Settings → Advanced → REST API, Read access)');
  const days = Number(options.ordersDays ?? DEFAULT_ORDERS_DAYS);
  if (!Number.isInteger(days) || days < 0 || days > MAX_ORDERS_DAYS) throw new UsageError(`--orders-days must be whole days from 0 to ${MAX_ORDERS_DAYS}`);
  const storeUrl = options.url.replace(/\/+$/, '');
  const client = new WooRestClient({ storeUrl, consumerKey: options.key, consumerSecret: options.secret });
  const state = fileStateStore<WooSyncState>(path.join(options.dataDir, 'sync', `woocommerce-${shopId}.json`));
  const target = { dataDir: options.dataDir, server: options.server, serverKey: options.serverKey, serverFlags: '--server and --server-key' };
  const summary = { source: storeUrl, api: 'REST API', requests: () => client.requests, days, skipped: 'not paid yet, cancelled or refunded, deleted products only' };
  return withSyncSink(target, shopId, (sink) =>
    reportedSync(summary, (hooks) => syncWooStore({ client, sink, storeUrl, ordersDays: days, now: Date.now(), state, report: hooks.report, progress: hooks.progress })),
  );
}
