import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DirectSink } from '../../../src/cli/sinks.js';
import type { SyncSink, SyncStateStore } from '../../../src/integrations/sync-sink.js';
import { PlatformApiError } from '../../../src/integrations/retrying-get.js';
import { WooRestClient } from '../../../src/integrations/woocommerce/rest-client.js';
import { syncWooStore, type WooSyncState } from '../../../src/integrations/woocommerce/sync.js';
import { CatalogStore } from '../../../src/store/catalog-store.js';
import { ensureLogId } from '../../../src/store/database.js';
import { ShopStore } from '../../../src/store/shop-store.js';
import { storedEvents } from '../../support/stored-events.js';
import { tempDatabases } from '../../support/temp-databases.js';
import { generateWooStore, startWooStandIn, type WooStandIn } from '../../support/woocommerce-stand-in.js';

const CREDENTIALS = { key: 'ck_test', secret: 'cs_test' };
const NOW = Date.now();
const store = generateWooStore({ products: 1000, orders: 2000, now: NOW, days: 120 });

function memoryState(): SyncStateStore<WooSyncState> & { state?: WooSyncState } {
  const holder: SyncStateStore<WooSyncState> & { state?: WooSyncState } = {
    load: () => (holder.state === undefined ? undefined : (structuredClone(holder.state))),
    save: (state) => {
      holder.state = structuredClone(state);
    },
  };
  return holder;
}

/** Product lines of the paid orders of the last 90 days: the purchases a sync stores (from the stand-in's store alone). */
function expectedLines(): string[] {
  const since = NOW - 90 * 86_400_000;
  return store.orders
    .filter((o) => Date.parse(`${String(o.date_created_gmt)}Z`) > since && ['processing', 'completed'].includes(o.status as string))
    .flatMap((o) => (o.line_items as { id: number; product_id: number }[]).filter((l) => l.product_id !== 0).map((l) => `woocommerce:${String(o.id)}:${l.id}`));
}

describe('syncWooStore', () => {
  let standIn: WooStandIn;
  const sleeps: number[] = [];
  const client = () => new WooRestClient({ storeUrl: standIn.url, consumerKey: CREDENTIALS.key, consumerSecret: CREDENTIALS.secret, sleep: async (ms) => void sleeps.push(ms) });
  beforeAll(async () => {
    standIn = await startWooStandIn(store, CREDENTIALS);
  });
  afterAll(() => standIn.close());

  async function freshShop() {
    const { dbs, cleanup } = tempDatabases();
    await new ShopStore(dbs).ensureShop('acme', { allowedOrigins: [] });
    const direct = new DirectSink(dbs, 7 * 86_400_000, await ensureLogId(dbs));
    const sink: SyncSink = { eventsPerChunk: direct.eventsPerChunk, products: (r) => direct.products('acme', r), events: (r) => direct.events('acme', r) };
    return { dbs, cleanup, sink };
  }

  test('When a 1,000-product, 2,000-order store is synced, then every product and the paid orders of 90 days are stored, 100 a page, and a second run stores nothing', async () => {
    const { dbs, cleanup, sink } = await freshShop();
    try {
      const before = standIn.requests.length;
      const first = await syncWooStore({ client: client(), sink, storeUrl: standIn.url, ordersDays: 90, now: NOW, state: memoryState() });
      expect([...new CatalogStore(dbs).readShop('acme')]).toHaveLength(1000);
      expect(storedEvents(dbs, 'acme').map((e) => e.event.messageId).sort()).toEqual(expectedLines().sort());
      expect(first.counts).toMatchObject({ products: 1000, purchases: expectedLines().length, refused: 0 });
      const pages = standIn.requests.slice(before);
      expect(pages.filter((r) => r.url.includes('/products?'))).toHaveLength(10);
      expect(pages.every((r) => r.url.includes('per_page=100'))).toBe(true);
      const second = await syncWooStore({ client: client(), sink, storeUrl: standIn.url, ordersDays: 90, now: NOW, state: memoryState() });
      expect(second.counts).toMatchObject({ products: 0, productsUnchanged: 1000, purchases: 0, purchasesAlreadyStored: expectedLines().length });
    } finally {
      await cleanup();
    }
  });

  test('When the store fails for good in the middle, then the sync stops with its state saved, and run again goes on from that page', async () => {
    const { dbs, cleanup, sink } = await freshShop();
    try {
      const state = memoryState();
      let products = 0;
      const failing = new WooRestClient({
        storeUrl: standIn.url,
        consumerKey: CREDENTIALS.key,
        consumerSecret: CREDENTIALS.secret,
        sleep: async () => {},
        fetch: async (input, init) => (String(input).includes('/products?') && ++products > 3 ? new Response('{"code":"internal_server_error"}', { status: 500 }) : fetch(input, init)),
      });
      await expect(syncWooStore({ client: failing, sink, storeUrl: standIn.url, ordersDays: 90, now: NOW, state })).rejects.toBeInstanceOf(PlatformApiError);
      expect(state.state).toMatchObject({ phase: 'products', page: 4 });
      const before = standIn.requests.length;
      const { counts, resumed } = await syncWooStore({ client: client(), sink, storeUrl: standIn.url, ordersDays: 90, now: NOW, state });
      expect(resumed).toBe(true);
      expect(standIn.requests.slice(before)[0]!.url).toContain('page=4');
      expect(counts).toMatchObject({ products: 1000, purchases: expectedLines().length });
      expect([...new CatalogStore(dbs).readShop('acme')]).toHaveLength(1000);
    } finally {
      await cleanup();
    }
  });

  test('When the keys are wrong, then it stops at once saying so; a 503 is retried', async () => {
    const wrong = new WooRestClient({ storeUrl: standIn.url, consumerKey: 'ck_x', consumerSecret: 'cs_x', sleep: async () => {} });
    await expect(wrong.page('products', 1)).rejects.toThrow(/401: the consumer key and secret were not accepted.*Sorry, you cannot list resources/);
    standIn.failNext(2, 503);
    expect((await client().page('products', 1)).items).toHaveLength(100);
  });
});
