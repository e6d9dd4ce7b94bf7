// The initial sync and catch-up of a WooCommerce store: every product, then the orders created in
// the last N days, read a page of 100 at a time from its REST API and written through a sink (the
// data dir, or a running server's API). The place is saved after each page, so an interrupted sync
// goes on from there; products carry date_modified_gmt and order lines stable messageIds, so pages
// written twice store nothing twice. Orders already cancelled or refunded are not imported, and those
// not yet paid (pending, on hold, failed) wait for their webhook.
import { emptyCounts, writeOrders, writeProducts, type Mapped, type SyncCounts, type SyncSink, type SyncStateStore } from '../sync-sink.js';
import { wooOrderOutcome } from './order-mapping.js';
import { isWooOrder, isWooProduct } from './payloads.js';
import { wooCatalogRecord } from './product-mapping.js';
import type { WooRestClient } from './rest-client.js';

export interface WooSyncState {
  version: 1;
  storeUrl: string;
  /** Orders created at or after this (ISO 8601, GMT) are read. */
  ordersSince: string;
  phase: 'products' | 'orders' | 'done';
  /** The next page to read (from 1). */
  page: number;
  counts: SyncCounts;
}

export interface WooSyncOptions {
  client: WooRestClient;
  sink: SyncSink;
  storeUrl: string;
  ordersDays: number;
  now: number;
  state: SyncStateStore<WooSyncState>;
  report?: (line: string) => void;
  progress?: (phase: 'products' | 'orders', done: number, total: number) => void;
}

export async function syncWooStore(options: WooSyncOptions): Promise<{ counts: SyncCounts; resumed: boolean }> {
  const saved = options.state.load();
  const resumed = saved !== undefined && saved.version === 1 && saved.storeUrl === options.storeUrl && saved.phase !== 'done';
  const state: WooSyncState = resumed
    ? saved
    : {
        version: 1,
        storeUrl: options.storeUrl,
        ordersSince: new Date(options.now - options.ordersDays * 86_400_000).toISOString().replace(/\.\d{3}Z$/, ''),
        phase: 'products',
        page: 1,
        counts: emptyCounts(),
      };
  const report = options.report ?? (() => {});
  while (state.phase !== 'done') {
    const phase = state.phase;
    const query: Record<string, string> = phase === 'orders' ? { after: state.ordersSince, dates_are_gmt: 'true' } : {};
    const page = await options.client.page<Record<string, unknown>>(phase, state.page, query);
    if (phase === 'products') await writeProducts(options.sink, state.counts, page.items, mapProduct, report);
    else await writeOrders(options.sink, state.counts, page.items, mapOrder, report);
    if (state.page >= page.totalPages || page.items.length === 0) {
      state.phase = phase === 'products' ? 'orders' : 'done';
      state.page = 1;
    } else state.page++;
    options.state.save(state);
    options.progress?.(phase, Math.min(page.total, (state.phase === phase ? state.page - 1 : page.totalPages) * 100), page.total);
  }
  return { counts: state.counts, resumed };
}

function mapProduct(item: Record<string, unknown>): Mapped<unknown> {
  if (!isWooProduct(item)) return { refused: 'not a product payload Pairwise can read' };
  const record = wooCatalogRecord(item);
  return record === undefined ? { refused: 'no name' } : { record };
}

function mapOrder(item: Record<string, unknown>): Mapped<readonly unknown[]> {
  if (!isWooOrder(item)) return { refused: 'not an order payload Pairwise can read' };
  const outcome = wooOrderOutcome(item);
  return outcome.kind === 'purchases' ? { record: outcome.events } : { skipped: true };
}
