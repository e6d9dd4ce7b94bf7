// The raw co-occurrence count reference (nDCG@10 0.238 when this protocol was first measured):
// for a query item, every item that shared a training invoice with it, ranked by the number of
// invoices they shared (exact counts, nothing pruned, no decay), ties by product order; no backfill.
import type { OrderLine } from './online-retail.js';

export class RawCountReference {
  readonly #basketsOf = new Map<string, string[][]>();

  constructor(
    train: readonly OrderLine[],
    readonly order: ReadonlyMap<string, number>,
  ) {
    const baskets = new Map<string, string[]>();
    for (const line of train) {
      let items = baskets.get(line.invoice);
      if (!items) baskets.set(line.invoice, (items = []));
      items.push(line.stockCode); // lines are merged per invoice and product: each item once
    }
    for (const items of baskets.values()) {
      for (const item of items) {
        let list = this.#basketsOf.get(item);
        if (!list) this.#basketsOf.set(item, (list = []));
        list.push(items);
      }
    }
  }

  /** The k items most often in an invoice with `query`. */
  rank(query: string, k: number): string[] {
    const counts = new Map<string, number>();
    for (const items of this.#basketsOf.get(query) ?? []) {
      for (const item of items) if (item !== query) counts.set(item, (counts.get(item) ?? 0) + 1);
    }
    return [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || this.order.get(a)! - this.order.get(b)!).slice(0, k);
  }
}
