// What each recent order's purchases counted in attribution's cells, kept so that a cancellation can
// take it back: per order id, its lines (the cell, the product, the order counted or not, revenue and
// storefront revenue), the least recently counted order dropped first past the bound.

export interface LedgerLine {
  day: number;
  /** The attribution key the purchase counted under (day-cells.ts). */
  key: number;
  pinned: boolean;
  productId: string;
  /** 1 when this purchase counted the order in its cell, else 0. */
  order: number;
  revenue: number;
  storefront: number;
}

/** [orderId, lines] pairs, the oldest order first; each line as [day, key, pinned (0/1), productId, order, revenue, storefront]. */
export type OrderLedgerSnapshot = [string, [number, number, number, string, number, number, number][]][];

export class OrderLedger {
  readonly #orders = new Map<string, LedgerLine[]>();

  constructor(readonly maxOrders: number) {}

  get size(): number {
    return this.#orders.size;
  }

  /** Adds a purchase's line to its order (which becomes the newest). */
  note(orderId: string, line: LedgerLine): void {
    const lines = this.#orders.get(orderId);
    if (lines !== undefined) {
      this.#orders.delete(orderId);
      lines.push(line);
      this.#orders.set(orderId, lines);
      return;
    }
    this.#orders.set(orderId, [line]);
    if (this.#orders.size > this.maxOrders) this.#orders.delete(this.#orders.keys().next().value!);
  }

  /** The order's lines, forgotten; none when it is not (or no longer) kept. */
  take(orderId: string): readonly LedgerLine[] {
    const lines = this.#orders.get(orderId);
    this.#orders.delete(orderId);
    return lines ?? [];
  }

  snapshot(): OrderLedgerSnapshot {
    return [...this.#orders].map(([orderId, lines]) => [orderId, lines.map((l) => [l.day, l.key, l.pinned ? 1 : 0, l.productId, l.order, l.revenue, l.storefront])]);
  }

  restore(snapshot: OrderLedgerSnapshot): void {
    for (const [orderId, lines] of snapshot) {
      this.#orders.set(orderId, lines.map(([day, key, pinned, productId, order, revenue, storefront]) => ({ day, key, pinned: pinned === 1, productId, order, revenue, storefront })));
    }
  }
}
