// Variants of one product (items of one item_group_id) merged into that product as a feed streams
// by: a product is finished once FEED_GROUP_WINDOW items have passed since its last variant (feeds
// list a product's variants together), so memory stays bounded however long the feed. Its price is
// the cheapest variant that can be bought (the cheapest of all when none can), and it is available
// when any variant is.
import type { FeedRecord } from './feed-item.js';

/** Products held open at once, the least recently seen finished first. */
export const FEED_GROUP_WINDOW = 1000;

interface Group {
  best: FeedRecord;
  available: boolean;
  /** The line of the group's first item, which its record is reported at. */
  line: number;
}

function better(candidate: FeedRecord, best: FeedRecord): boolean {
  if (candidate.inStock !== best.inStock) return candidate.inStock;
  const a = candidate.record.price === null || candidate.record.price === undefined ? Infinity : Number(candidate.record.price);
  const b = best.record.price === null || best.record.price === undefined ? Infinity : Number(best.record.price);
  return a < b;
}

export class FeedGroups {
  readonly #open = new Map<string, Group>();

  constructor(readonly window = FEED_GROUP_WINDOW) {}

  /** Adds a variant; returns the products this finished (each with its first line). */
  add(item: FeedRecord, line: number): { line: number; value: unknown }[] {
    const group = this.#open.get(item.productKey);
    if (group === undefined) this.#open.set(item.productKey, { best: item, available: item.inStock, line });
    else {
      this.#open.delete(item.productKey); // re-inserted: now the most recently seen
      this.#open.set(item.productKey, { best: better(item, group.best) ? item : group.best, available: group.available || item.inStock, line: group.line });
    }
    const finished: { line: number; value: unknown }[] = [];
    while (this.#open.size > this.window) {
      const [key, oldest] = this.#open.entries().next().value!;
      this.#open.delete(key);
      finished.push(finish(oldest));
    }
    return finished;
  }

  /** Every product still open, in the order first seen. */
  end(): { line: number; value: unknown }[] {
    const rest = [...this.#open.values()].sort((a, b) => a.line - b.line).map(finish);
    this.#open.clear();
    return rest;
  }
}

function finish(group: Group): { line: number; value: unknown } {
  return { line: group.line, value: { ...group.best.record, available: group.available } };
}
