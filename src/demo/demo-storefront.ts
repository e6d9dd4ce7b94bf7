// What the demo storefront (/demo) knows beyond the engine's catalog: the demo shop's public key,
// its collections' names (the engine keeps only ids) and a few sample shoppers with real order
// histories to "sign in" as. Shoppers are picked from data/demo/events.csv on first use.
import type { CatalogReader } from '../engine/shop-face.js';
import { readDemoCollections, readDemoEvents, readDemoProducts, type DemoCollectionRow } from './demo-files.js';

export type DemoCollection = DemoCollectionRow;

export interface SampleShopper {
  customerId: string;
  orders: number;
  /** Title of the collection this shopper bought from most. */
  favourite: string | undefined;
}

export interface DemoStorefront {
  readonly publicKey: string;
  /** The demo shop's catalog as it is now (read per page: catalog updates through the API show at once). */
  catalog(): CatalogReader;
  /** A customer token for a signed-in sample shopper (as a merchant's theme renders one). */
  customerToken(customerId: string): string;
  readonly collections: readonly DemoCollection[];
  /** A collection by id or handle. */
  collection(idOrHandle: string): DemoCollection | undefined;
  shoppers(): readonly SampleShopper[];
  shopper(customerId: string): SampleShopper | undefined;
}

const SAMPLE_SHOPPERS = 5;

function pickShoppers(demoDir: string, collections: readonly DemoCollection[]): SampleShopper[] {
  const productCollections = new Map<string, readonly string[]>();
  for (const product of readDemoProducts(demoDir) as { id: string; collections?: string[] }[]) productCollections.set(product.id, product.collections ?? []);
  const orders = new Map<string, Set<string>>();
  const byCollection = new Map<string, Map<string, number>>();
  for (const row of readDemoEvents(demoDir)) {
    if (row.type !== 'purchase' || row.customerId === undefined) continue;
    let own = orders.get(row.customerId);
    if (own === undefined) orders.set(row.customerId, (own = new Set()));
    own.add(row.orderId ?? row.sessionId);
    let counts = byCollection.get(row.customerId);
    if (counts === undefined) byCollection.set(row.customerId, (counts = new Map()));
    for (const c of productCollections.get(row.productId) ?? []) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  // Regular customers, not the wholesalers with hundreds of lines: 3 to 12 orders, most first.
  const regulars = [...orders].filter(([, o]) => o.size >= 3 && o.size <= 12).sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1));
  const picked: SampleShopper[] = [];
  const favourites = new Set<string>();
  for (const [customerId, own] of regulars) {
    const counts = [...(byCollection.get(customerId) ?? [])].sort((a, b) => b[1] - a[1]);
    // The catch-all "Gifts" collection says little about a taste: prefer the next one.
    const top = counts.find(([c]) => collections.find((x) => x.id === c)?.handle !== 'gifts') ?? counts[0];
    const favourite = collections.find((c) => c.id === top?.[0])?.title;
    // Shoppers with different tastes show personalization best.
    if (favourite !== undefined && favourites.has(favourite)) continue;
    if (favourite !== undefined) favourites.add(favourite);
    picked.push({ customerId, orders: own.size, favourite });
    if (picked.length === SAMPLE_SHOPPERS) break;
  }
  return picked;
}

export interface DemoStorefrontOptions {
  demoDir: string;
  publicKey: string;
  /** A customer token for a sample shopper, as a merchant's theme mints one per page. */
  customerToken: (customerId: string) => string;
  catalog: () => CatalogReader;
}

export function createDemoStorefront({ demoDir, publicKey, customerToken, catalog }: DemoStorefrontOptions): DemoStorefront {
  const collections = readDemoCollections(demoDir);
  let shoppers: SampleShopper[] | undefined;
  return {
    publicKey,
    catalog,
    customerToken,
    collections,
    collection: (idOrHandle) => collections.find((c) => c.id === idOrHandle || c.handle === idOrHandle),
    shoppers: () => (shoppers ??= pickShoppers(demoDir, collections)),
    shopper(customerId) {
      return this.shoppers().find((s) => s.customerId === customerId);
    },
  };
}
