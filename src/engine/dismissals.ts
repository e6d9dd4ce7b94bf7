// Products a shopper dismissed, hidden from that shopper for `ttlMs` after the dismissal.
import { ShopperMap, type ShopperKey } from './shopper-map.js';

/** Dismissals kept per shopper; the oldest go first past this. */
const MAX_PER_SHOPPER = 200;

export class Dismissals {
  readonly #byShopper: ShopperMap<Map<number, number>>;

  constructor(
    readonly ttlMs: number,
    maxShoppers: number,
  ) {
    this.#byShopper = new ShopperMap(maxShoppers, () => new Map());
  }

  record(key: ShopperKey, id: number, t: number): void {
    const dismissed = this.#byShopper.touch(key);
    const previous = dismissed.get(id);
    if (previous !== undefined && previous >= t) return;
    dismissed.delete(id);
    dismissed.set(id, t);
    if (dismissed.size > MAX_PER_SHOPPER) dismissed.delete(dismissed.keys().next().value!);
  }

  snapshot(): [ShopperKey, [number, number][]][] {
    return [...this.#byShopper.entries()].map(([key, map]) => [key, [...map]]);
  }

  restore(snapshot: readonly [ShopperKey, [number, number][]][]): void {
    for (const [key, entries] of snapshot) this.#byShopper.restore(key, new Map(entries));
  }

  /** Dense ids the shopper dismissed within the ttl before `now`. */
  hiddenFor(key: ShopperKey, now: number, into: Set<number>): void {
    const dismissed = this.#byShopper.get(key);
    if (dismissed === undefined) return;
    for (const [id, t] of dismissed) if (now - t < this.ttlMs) into.add(id);
  }
}
