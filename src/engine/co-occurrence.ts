// Items that occur together in groups — baskets (an order, a session's cart) or a shopper's
// history: per item, a capped map of neighbour → count, updated as each item joins a group.
// Memory grows with items × maxNeighbors, never with events: a map past 2·maxNeighbors is pruned
// back to its strongest maxNeighbors.
import { ShopperMap } from './shopper-map.js';

/** An item's neighbours ranked best first, with their scores. */
export interface RankedNeighbors {
  readonly ids: readonly number[];
  readonly scores: readonly number[];
}

export interface CoOccurrenceSnapshot {
  /** Per dense id: its neighbour → count entries in map order, or null. */
  neighbors: ([number, number][] | null)[];
  itemBaskets: number[];
  baskets: [string, number[]][];
  basketCount: number;
}

/** Pair weights are stored × this, as integers (1/3 of a pair is 21,845). */
export const WEIGHT_SCALE = 65_536;

export class CoOccurrence {
  readonly #neighbors: (Map<number, number> | undefined)[] = [];
  /** Ranked neighbours per item, dropped whenever the item's own pairs change. */
  readonly #ranked: (RankedNeighbors | undefined)[] = [];
  /** Baskets each item was in. */
  readonly #itemBaskets: number[] = [];
  readonly #baskets: ShopperMap<number[]>;
  #basketCount = 0;

  /**
   * @param maxBasketItems items a group pairs at most: a full basket ignores further items
   *   (bulk orders say little), a `sliding` group (a shopper's history) forgets its oldest item
   *   and weighs each new pair by 1/(items already in the group), as RP3β does: a shopper who
   *   touched hundreds of products says less about each pair than one who touched three.
   */
  constructor(
    readonly maxNeighbors: number,
    maxBaskets: number,
    readonly maxBasketItems: number,
    readonly sliding = false,
  ) {
    this.#baskets = new ShopperMap(maxBaskets, () => []);
  }

  /** Adds `item` to the basket `basketKey`; a repeat of an item in the same basket counts once. */
  add(basketKey: string, item: number): void {
    const basket = this.#baskets.touch(basketKey);
    if (basket.includes(item)) return;
    if (basket.length >= this.maxBasketItems) {
      if (!this.sliding) return;
      basket.shift();
    }
    if (basket.length === 0) this.#basketCount++;
    this.#itemBaskets[item] = (this.#itemBaskets[item] ?? 0) + 1;
    // Integer weights keep map values small integers (no boxed doubles: far less GC at scale).
    const weight = this.sliding ? Math.round(WEIGHT_SCALE / Math.max(1, basket.length)) : WEIGHT_SCALE;
    for (const other of basket) {
      this.#bump(item, other, weight);
      this.#bump(other, item, weight);
    }
    basket.push(item);
  }

  /** Jaccard index of two items' groups: together / (groups of a + groups of b − together). */
  jaccard(a: number, together: number, b: number): number {
    const count = together / WEIGHT_SCALE;
    return count / (this.basketsOf(a) + this.basketsOf(b) - count);
  }

  /**
   * Neighbour → co-occurrence count × WEIGHT_SCALE (weighted for sliding groups); valid until the
   * next add. Divide by WEIGHT_SCALE for a count.
   */
  neighbors(item: number): ReadonlyMap<number, number> | undefined {
    return this.#neighbors[item];
  }

  /**
   * The item's neighbours ranked by `score(together, candidateBaskets)`, ties by `tieBreak`.
   * Cached until one of the item's own pairs changes: a candidate's basket count that moved
   * since (through other baskets) refreshes with the item's next pair. Valid until the next add.
   */
  ranked(item: number, score: (together: number, candidateBaskets: number) => number, tieBreak: (a: number, b: number) => number): RankedNeighbors | undefined {
    let ranked = this.#ranked[item];
    if (ranked !== undefined) return ranked;
    const map = this.#neighbors[item];
    if (map === undefined) return undefined;
    const scored: [number, number][] = [];
    for (const [id, together] of map) scored.push([id, score(together / WEIGHT_SCALE, this.basketsOf(id))]);
    scored.sort((a, b) => b[1] - a[1] || tieBreak(a[0], b[0]));
    ranked = { ids: scored.map((entry) => entry[0]), scores: scored.map((entry) => entry[1]) };
    this.#ranked[item] = ranked;
    return ranked;
  }

  snapshot(): CoOccurrenceSnapshot {
    return {
      neighbors: Array.from(this.#neighbors, (map) => (map === undefined ? null : [...map])),
      itemBaskets: Array.from(this.#itemBaskets, (n) => n ?? 0),
      baskets: [...this.#baskets.entries()],
      basketCount: this.#basketCount,
    };
  }

  restore(snapshot: CoOccurrenceSnapshot): void {
    snapshot.neighbors.forEach((entries, item) => {
      if (entries !== null) this.#neighbors[item] = new Map(entries);
    });
    snapshot.itemBaskets.forEach((n, item) => {
      if (n > 0) this.#itemBaskets[item] = n;
    });
    for (const [key, items] of snapshot.baskets) this.#baskets.restore(key, [...items]);
    this.#basketCount = snapshot.basketCount;
  }

  /** How often two items were together (weighted for sliding groups); 0 if never or pruned. */
  together(a: number, b: number): number {
    return (this.#neighbors[a]?.get(b) ?? 0) / WEIGHT_SCALE;
  }

  /** Number of baskets `item` was in. */
  basketsOf(item: number): number {
    return this.#itemBaskets[item] ?? 0;
  }

  get basketCount(): number {
    return this.#basketCount;
  }

  #bump(item: number, other: number, weight: number): void {
    let map = this.#neighbors[item];
    if (map === undefined) this.#neighbors[item] = map = new Map();
    map.set(other, (map.get(other) ?? 0) + weight);
    this.#ranked[item] = undefined;
    if (map.size > 2 * this.maxNeighbors) this.#prune(item, map);
  }

  #prune(item: number, map: Map<number, number>): void {
    const kept = [...map].sort((a, b) => b[1] - a[1]).slice(0, this.maxNeighbors);
    this.#neighbors[item] = new Map(kept);
  }
}
