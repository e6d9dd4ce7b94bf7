// What recommendations earned per product: per UTC day and per product clicked from a
// recommendation the same counters as the key cells (impressions stay 0: they are not counted per
// product, see attribution.ts), in a DayCells table keyed by a product's index in a bounded table
// of names. It backs the dashboard's
// "top recommended products" and GET /api/stats?groupBy=product.
// Bounded whatever the input: MAX_PRODUCTS named products (later ones count as OTHER_PRODUCT),
// MAX_DAYS days and MAX_PRODUCT_CELLS (day, product) cells; when full, the oldest day is dropped
// first, so the most recent days always count (a busy shop keeps fewer days than MAX_DAYS).
// Cost on the ingest path: one string Map lookup per counted event, and the product's row for the
// day remembered per product (events of one day mostly hit it), so the cell Map is read once per
// product and day instead of once per event.
import { DayCells, FIELDS, MAX_DAYS, type DayCellsSnapshot } from './day-cells.js';

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
  /** Per product index: the day, row and DayCells.drops of its last counted cell (-1: none). */
  readonly #lastDay: number[] = [-1];
  readonly #lastRow: number[] = [-1];
  readonly #lastDrops: number[] = [-1];

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
    this.#lastDay.push(-1);
    this.#lastRow.push(-1);
    this.#lastDrops.push(-1);
    return index;
  }

  /** Adds `amount` to one counter of the product's cell on `day`. */
  add(day: number, productId: string, field: number, amount: number): void {
    const index = this.index(productId);
    const cells = this.cells;
    let row = this.#lastRow[index]!;
    if (this.#lastDay[index] !== day || this.#lastDrops[index] !== cells.drops) {
      row = cells.row(day, index);
      if (row < 0) return;
      // Valid until a day is dropped (its rows are reused): drops is part of the memo.
      this.#lastDay[index] = day;
      this.#lastRow[index] = row;
      this.#lastDrops[index] = cells.drops;
    }
    cells.rows[row * FIELDS + field]! += amount;
  }

  /** One of the product's clicks on `day` gone on to a cart or an order (DayCells.addClickOutcome). */
  addClickOutcome(day: number, productId: string, field: number): void {
    this.cells.addClickOutcome(day, this.#indexOf.get(productId) ?? OTHER_PRODUCT, field);
  }

  /** Takes back what `add` counted for the product on `day` (DayCells.takeBack). */
  takeBack(day: number, productId: string, field: number, amount: number): void {
    this.cells.takeBack(day, this.#indexOf.get(productId) ?? OTHER_PRODUCT, field, amount);
  }

  snapshot(): ProductCellsSnapshot {
    return { products: this.#names.slice(1), cells: this.cells.snapshot() };
  }

  restore(snapshot: ProductCellsSnapshot): void {
    for (const name of snapshot.products) this.index(name);
    this.cells.restore(snapshot.cells);
  }
}
