import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DirectSink } from '../../../src/cli/sinks.js';
import { AdminClient } from '../../../src/integrations/shopify/admin-client.js';
import { syncShop, type SyncSink, type SyncState, type SyncStateStore } from '../../../src/integrations/shopify/sync.js';
import { CatalogStore } from '../../../src/store/catalog-store.js';
import { ensureLogId } from '../../../src/store/database.js';
import { ShopStore } from '../../../src/store/shop-store.js';
import { storedEvents } from '../../support/stored-events.js';
import { generateShop, startShopifyStandIn, type StandIn } from '../../support/shopify-stand-in.js';
import { tempDatabases } from '../../support/temp-databases.js';

const TOKEN = 'shpat_sync';
const NOW = Date.now();
const DAYS = 90;
const shop = generateShop({ products: 1000, orders: 2000, now: NOW, days: 120 });
const { dbs, cleanup } = tempDatabases();
/** The stand-in's bucket leaks by this clock, which only the clients' sleeps move: waits are taken at once. */
let fakeNow = 0;
const sleep = async (ms: number) => {
  fakeNow += ms;
};

function memoryState(): SyncStateStore & { saved: number; state?: SyncState } {
  const store = {
    saved: 0,
    state: undefined as SyncState | undefined,
    load: () => (store.state === undefined ? undefined : (JSON.parse(JSON.stringify(store.state)) as SyncState)),
    save: (state: SyncState) => {
      store.saved++;
      store.state = JSON.parse(JSON.stringify(state)) as SyncState;
    },
  };
  return store;
}

/** What a correct sync stores, computed from the stand-in's shop alone (not through the mapping). */
function expected() {
  const since = NOW - DAYS * 86_400_000;
  const orders = shop.orders.filter((o) => Date.parse(o.created_at as string) >= since);
  const lines = orders.filter((o) => o.test !== true && o.cancelled_at === null).flatMap((o) => (o.line_items as { id: number; product_id: number | null }[]).filter((l) => l.product_id !== null).map((l) => `shopify:${String(o.id)}:${l.id}`));
  const collectionsOf = new Map<string, string[]>();
  for (const [collection, ids] of shop.members) {
    const product = new Map(shop.products.map((p) => [p.id, p]));
    for (const id of ids) if (product.get(id)!.status === 'active') (collectionsOf.get(String(id)) ?? collectionsOf.set(String(id), []).get(String(id))!).push(String(collection));
  }
  return { orders, lines, collectionsOf };
}

describe('syncShop', () => {
  let standIn: StandIn;
  let sink: SyncSink;
  beforeAll(async () => {
    standIn = await startShopifyStandIn(shop, { accessToken: TOKEN, clock: () => fakeNow });
    await new ShopStore(dbs).ensureShop('acme', { allowedOrigins: [] });
    const direct = new DirectSink(dbs, 7 * 86_400_000, await ensureLogId(dbs));
    sink = { eventsPerChunk: direct.eventsPerChunk, products: (r) => direct.products('acme', r), events: (r) => direct.events('acme', r) };
  });
  afterAll(async () => {
    await standIn.close();
    await cleanup();
  });

  const client = () => new AdminClient({ apiUrl: standIn.apiUrl, accessToken: TOKEN, sleep });

  test('When a 1,000-product, 2,000-order shop is synced, then every product with its collections and every product line of the period is stored, in pages', async () => {
    const state = memoryState();
    const { counts, resumed } = await syncShop({ client: client(), sink, domain: 'acme.myshopify.com', ordersDays: DAYS, now: NOW, state });
    const want = expected();
    expect(resumed).toBe(false);
    const products = [...new CatalogStore(dbs).readShop('acme')];
    expect(products).toHaveLength(1000);
    for (const product of products) expect([...product.collections].sort()).toEqual((want.collectionsOf.get(product.id) ?? []).sort());
    const messageIds = storedEvents(dbs, 'acme').map((e) => e.event.messageId);
    expect(messageIds.sort()).toEqual([...want.lines].sort());
    expect(counts).toMatchObject({ collections: 15, products: 1000, productsUnchanged: 0, orders: want.orders.length, purchases: want.lines.length, purchasesAlreadyStored: 0, refused: 0 });
    // Pages of 250: 4 of products, and the orders of the period in pages too.
    expect(standIn.requests.filter((r) => r.url.includes('/products.json') && !r.url.includes('collections/'))).toHaveLength(4);
    expect(standIn.requests.filter((r) => r.url.includes('/orders.json'))).toHaveLength(Math.ceil(want.orders.length / 250));
    expect(state.state!.phase).toBe('done');
  });

  test('When the sync runs again, then it stores nothing twice', async () => {
    const before = storedEvents(dbs, 'acme').length;
    const head = new CatalogStore(dbs).log.head('acme', true);
    const { counts } = await syncShop({ client: client(), sink, domain: 'acme.myshopify.com', ordersDays: DAYS, now: NOW, state: memoryState() });
    expect(counts).toMatchObject({ products: 0, productsUnchanged: 1000, purchases: 0, purchasesAlreadyStored: expected().lines.length });
    expect(storedEvents(dbs, 'acme').length).toBe(before);
    expect(new CatalogStore(dbs).log.head('acme', true)).toBe(head);
  });

  test('When a sync is interrupted, then run again it goes on from the page it stopped at and ends with the same data', async () => {
    const { dbs: other, cleanup: cleanupOther } = tempDatabases();
    try {
      await new ShopStore(other).ensureShop('acme', { allowedOrigins: [] });
      const direct = new DirectSink(other, 7 * 86_400_000, await ensureLogId(other));
      const otherSink: SyncSink = { eventsPerChunk: direct.eventsPerChunk, products: (r) => direct.products('acme', r), events: (r) => direct.events('acme', r) };
      const state = memoryState();
      // Fail for good in the middle of the products (after the collections, their members and one page).
      let served = 0;
      const failing = new AdminClient({
        apiUrl: standIn.apiUrl,
        accessToken: TOKEN,
        sleep,
        fetch: async (input, init) => {
          if (String(input).includes('/products.json') && !String(input).includes('collections/') && ++served > 1) return new Response('{"errors":"Internal Server Error"}', { status: 500 });
          return fetch(input, init);
        },
      });
      await expect(syncShop({ client: failing, sink: otherSink, domain: 'acme.myshopify.com', ordersDays: DAYS, now: NOW, state })).rejects.toThrow(/500/);
      expect(state.state).toMatchObject({ phase: 'products' });
      expect([...new CatalogStore(other).readShop('acme')]).toHaveLength(250);
      const requestsBefore = standIn.requests.length;
      const { counts, resumed } = await syncShop({ client: client(), sink: otherSink, domain: 'acme.myshopify.com', ordersDays: DAYS, now: NOW, state });
      expect(resumed).toBe(true);
      // Collections were not read again.
      expect(standIn.requests.slice(requestsBefore).some((r) => r.url.includes('collections'))).toBe(false);
      expect(counts).toMatchObject({ collections: 15, products: 1000, productsUnchanged: 0, purchases: expected().lines.length, purchasesAlreadyStored: 0 });
      expect([...new CatalogStore(other).readShop('acme')].sort((a, b) => a.id.localeCompare(b.id)).map(({ updatedAt: _, ...p }) => p)).toEqual(
        [...new CatalogStore(dbs).readShop('acme')].sort((a, b) => a.id.localeCompare(b.id)).map(({ updatedAt: _, ...p }) => p),
      );
    } finally {
      await cleanupOther();
    }
  });
});
