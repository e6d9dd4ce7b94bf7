// Read helpers over the engine's catalog for the demo pages: products by handle, a collection's
// products, prices as the demo shop shows them (GBP). Everything is read per request, so catalog
// updates through the API show up at once.
import type { CatalogReader } from '../../engine/shop-face.js';
import type { Product } from '../../engine/product.js';
import type { DemoStorefront, SampleShopper } from '../demo-storefront.js';

export interface PageContext {
  storefront: DemoStorefront;
  catalog: CatalogReader;
  /** The sample shopper signed in, if any. */
  shopper: SampleShopper | undefined;
  /** Path of this page, to come back to after switching shoppers. */
  path: string;
}

export const CURRENCY = 'GBP';
export const LOCALE = 'en-GB';
const money = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: CURRENCY });

export function formatPrice(amount: string | null): string {
  return amount === null || !Number.isFinite(Number(amount)) ? '' : money.format(Number(amount));
}

export function productByHandle(catalog: CatalogReader, handle: string): Product | undefined {
  for (const dense of catalog.ordered()) {
    const product = catalog.product(dense);
    if (product !== undefined && (product.handle === handle || (product.handle === '' && product.id === handle))) return product;
  }
  return undefined;
}

export function collectionProducts(catalog: CatalogReader, collectionId: string): Product[] {
  const out: Product[] = [];
  for (const dense of catalog.orderedMembers(collectionId)) {
    const product = catalog.product(dense);
    if (product !== undefined) out.push(product);
  }
  return out;
}

export function productPath(product: Product): string {
  return `/demo/products/${encodeURIComponent(product.handle || product.id)}`;
}
