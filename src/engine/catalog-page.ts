// One page of a shop's catalog in product-id order (the order every ranking breaks ties by), starting
// after a given id. Paging by id rather than by index keeps a listing exact while the catalog
// changes between pages: a product present throughout is listed exactly once, whatever is added or
// removed meanwhile (a product added behind the cursor is simply not seen).
import { compareProductIds } from './catalog.js';
import type { CatalogReader } from './shop-face.js';
import type { Product } from './product.js';

export interface CatalogPage {
  products: Product[];
  /** Whether products follow the last one listed. */
  more: boolean;
}

/** The first index of `ordered` whose id sorts after `after`. O(log n). */
function firstAfter(catalog: CatalogReader, ordered: readonly number[], after: string): number {
  let low = 0;
  let high = ordered.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareProductIds(catalog.idOf(ordered[middle]!), after) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Up to `limit` products after the id `after` (from the start when undefined). O(log n + limit),
 * plus O(n log n) for the first page after the catalog changed (Catalog.ordered is rebuilt).
 */
export function catalogPage(catalog: CatalogReader, after: string | undefined, limit: number): CatalogPage {
  const ordered = catalog.ordered();
  const start = after === undefined ? 0 : firstAfter(catalog, ordered, after);
  const end = Math.min(ordered.length, start + limit);
  const products: Product[] = [];
  for (let i = start; i < end; i++) products.push(catalog.product(ordered[i]!)!);
  return { products, more: end < ordered.length };
}
