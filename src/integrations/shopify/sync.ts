// The initial sync and catch-up of a Shopify shop: its collections and their members, every product,
// and the orders of the last N days, read page by page from the Admin API and written through a sink
// (the data dir, or a running server's API). After each page is written its place is saved, so an
// interrupted sync goes on from there; products carry Shopify's updated_at and order lines stable
// messageIds, so pages written twice store nothing twice.
import { emptyCounts, writeOrders, writeProducts, type Mapped, type SyncCounts, type SyncSink, type SyncStateStore } from '../sync-sink.js';
import { AdminClient, PAGE_LIMIT } from './admin-client.js';
import { orderEvents } from './order-mapping.js';
import { shopifyId, isShopifyOrder, isShopifyProduct, type ShopifyId } from './payloads.js';
import { toCatalogRecord } from './product-mapping.js';

type Phase = 'custom-collections' | 'smart-collections' | 'members' | 'products' | 'orders' | 'done';

/** A sync's counts, and the collections it read. */
export interface ShopifySyncCounts extends SyncCounts {
  collections: number;
}

/** Where a sync stands: saved after every page, so that a sync run again goes on from there. */
export interface SyncState {
  version: 1;
  domain: string;
  /** The orders read are those created at or after this (ISO 8601). */
  ordersSince: string;
  phase: Phase;
  /** The next page of the phase's list; undefined: its first page. */
  next?: string;
  /** Collections whose members are still to be read (the first is being read). */
  pending: string[];
  /** Product id → the ids of its collections. */
  members: Record<string, string[]>;
  counts: ShopifySyncCounts;
}

export interface SyncProgress {
  /** Called after each page: the phase, and how many of its items are done out of `total` (when known). */
  update(phase: Phase, done: number, total: number | undefined): void;
}

export interface SyncOptions {
  client: AdminClient;
  sink: SyncSink;
  domain: string;
  ordersDays: number;
  now: number;
  state: SyncStateStore<SyncState>;
  report?: (line: string) => void;
  progress?: SyncProgress;
}

const NEXT_PHASE: Record<Phase, Phase> = {
  'custom-collections': 'smart-collections',
  'smart-collections': 'members',
  members: 'products',
  products: 'orders',
  orders: 'done',
  done: 'done',
};

function freshState(domain: string, ordersSince: string): SyncState {
  const counts: ShopifySyncCounts = { ...emptyCounts(), collections: 0 };
  return { version: 1, domain, ordersSince, phase: 'custom-collections', pending: [], members: {}, counts };
}

/**
 * Runs the sync to its end, starting from the saved state when one of the same domain is unfinished,
 * else afresh; resolves with the final counts. Throws (the state saved) when the API or the sink
 * fails in a way waiting cannot fix.
 */
export async function syncShop(options: SyncOptions): Promise<{ counts: ShopifySyncCounts; resumed: boolean }> {
  const { client, sink, state: store } = options;
  const saved = store.load();
  const resumed = saved !== undefined && saved.version === 1 && saved.domain === options.domain && saved.phase !== 'done';
  const state = resumed ? saved : freshState(options.domain, new Date(options.now - options.ordersDays * 86_400_000).toISOString());
  const report = options.report ?? (() => {});
  const totals: Partial<Record<Phase, number>> = {};
  let done = 0;

  while (state.phase !== 'done') {
    const phase = state.phase;
    const url = state.next ?? firstPage(client, state);
    if (url === undefined) {
      advance(state);
      store.save(state);
      continue;
    }
    if (state.next === undefined && totals[phase] === undefined) totals[phase] = await total(client, state);
    const key = LIST_KEY[phase];
    const page = await client.page<Record<string, unknown>>(url, key);
    switch (phase) {
      case 'custom-collections':
      case 'smart-collections':
        for (const collection of page.items) state.pending.push(shopifyId(collection.id as ShopifyId));
        state.counts.collections += page.items.length;
        break;
      case 'members': {
        const collection = state.pending[0]!;
        for (const product of page.items) (state.members[shopifyId(product.id as ShopifyId)] ??= []).push(collection);
        break;
      }
      case 'products':
        await writeProducts(sink, state.counts, page.items, (item) => mapProduct(item, state), report);
        break;
      case 'orders':
        await writeOrders(sink, state.counts, page.items, mapOrder, report);
        break;
    }
    done += page.items.length;
    if (page.next !== undefined) state.next = page.next;
    else if (phase === 'members' && state.pending.length > 1) {
      state.pending.shift();
      state.next = undefined;
    } else {
      advance(state);
      done = 0;
    }
    store.save(state);
    options.progress?.update(phase, done, totals[phase]);
  }
  return { counts: state.counts, resumed };
}

const LIST_KEY: Record<Phase, string> = {
  'custom-collections': 'custom_collections',
  'smart-collections': 'smart_collections',
  members: 'products',
  products: 'products',
  orders: 'orders',
  done: '',
};

function advance(state: SyncState): void {
  if (state.phase === 'members') state.pending = [];
  state.phase = NEXT_PHASE[state.phase];
  state.next = undefined;
}

/** The first page of the phase's list; undefined when it has none (no collections to read members of). */
function firstPage(client: AdminClient, state: SyncState): string | undefined {
  switch (state.phase) {
    case 'custom-collections':
      return client.url('custom_collections.json', { limit: PAGE_LIMIT });
    case 'smart-collections':
      return client.url('smart_collections.json', { limit: PAGE_LIMIT });
    case 'members':
      return state.pending.length === 0 ? undefined : client.url(`collections/${state.pending[0]}/products.json`, { limit: PAGE_LIMIT, fields: 'id' });
    case 'products':
      return client.url('products.json', { limit: PAGE_LIMIT });
    case 'orders':
      return client.url('orders.json', { limit: PAGE_LIMIT, status: 'any', created_at_min: state.ordersSince });
    case 'done':
      return undefined;
  }
}

/** How many items the phase will read, for the progress bar (products and orders; none for the rest). */
async function total(client: AdminClient, state: SyncState): Promise<number | undefined> {
  if (state.phase === 'products') return client.count('products/count.json');
  if (state.phase === 'orders') return client.count('orders/count.json', { status: 'any', created_at_min: state.ordersSince });
  return undefined;
}

function mapProduct(item: Record<string, unknown>, state: SyncState): Mapped<unknown> {
  if (!isShopifyProduct(item)) return { refused: 'not a product payload Pairwise can read' };
  const record = toCatalogRecord(item, state.members[shopifyId(item.id)] ?? []);
  return record === undefined ? { refused: 'no title' } : { record };
}

function mapOrder(item: Record<string, unknown>): Mapped<readonly unknown[]> {
  if (!isShopifyOrder(item)) return { refused: 'not an order payload Pairwise can read' };
  const mapped = orderEvents(item);
  return mapped.ok ? { record: mapped.events } : { skipped: true };
}
