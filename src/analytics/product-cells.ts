// What recommendations earned per product: per UTC day and per recommended product the same five
// counters as the key cells (impressions, clicks, attributed add-to-carts, orders, revenue), in a
// DayCells table keyed by a product's index in a bounded table of names. It backs the dashboard's
// "top recommended products" and GET /api/stats?groupBy=product.
// Bounded whatever the input: MAX_PRODUCTS named products (later ones count as OTHER_PRODUCT),
// MAX_DAYS days and MAX_PRODUCT_CELLS (day, product) cells; when full, the oldest day is dropped
// first, so the most recent days always count (a busy shop keeps fewer days than MAX_DAYS).
import { DayCells, MAX_DAYS, type DayCellsSnapshot } from './day-cells.js';

export const MAX_PRODUCTS = 65_536;
export const MAX_PRODUCT_CELLS = 200_000;
/** Index 0: every product past MAX_PRODUCTS, and the overflow cell. */
export const OTHER_PRODUCT = 0;
export const OTHER_PRODUCT_NAME = '(other)';

export interface ProductCellsSnapshot {
  /** Product ids by index from 1 on. */
  products: string[];
  cells: DayCellsSnapshot;
}

export class ProductCells {
  readonly cells = new DayCells({ maxDays: MAX_DAYS, maxCells: MAX_PRODUCT_CELLS, overflowKey: OTHER_PRODUCT, dropOldestWhenFull: true });
  readonly #indexOf = new Map<string, number>();
  readonly #names: string[] = [OTHER_PRODUCT_NAME];

  /** Product ids by index (0: the products past the bound). */
  get names(): readonly string[] {
    return this.#names;
  }

  /** The product's index, named if there is room. */
  index(productId: string): number {
    let index = this.#indexOf.get(productId);
    if (index !== undefined) return index;
    if (this.#names.length > MAX_PRODUCTS) return OTHER_PRODUCT;
    this.#indexOf.set(productId, (index = this.#names.length));
    this.#names.push(productId);
    return index;
  }

  snapshot(): ProductCellsSnapshot {
    return { products: this.#names.slice(1), cells: this.cells.snapshot() };
  }

  restore(snapshot: ProductCellsSnapshot): void {
    for (const name of snapshot.products) this.index(name);
    this.cells.restore(snapshot.cells);
  }
}
