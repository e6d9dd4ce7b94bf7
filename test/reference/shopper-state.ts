// References for the shopper table and its per-shopper models, in plain Maps: an LRU as a Map
// re-inserted on write, and pooled, one such Map per key prefix with its own capacity; affinities as a Map of product → value with the weakest dropped (the old
// engine's code, with values rounded to float32 as the compact table stores them) and the most
// recent distinct purchases.

export class ReferenceLru<V> {
  readonly entries = new Map<string, V>();

  constructor(
    readonly max: number,
    readonly create: () => V,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  touch(key: string): V {
    let value = this.entries.get(key);
    if (value === undefined) value = this.create();
    else this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

/**
 * An LRU per key prefix, each with its own capacity: a new key evicts the oldest of its own prefix.
 * Seeded with more keys than a prefix's capacity (a table restored from other pools), a prefix under
 * its capacity in a full table evicts the oldest key of the first prefix over its own.
 */
export class ReferencePooledLru<V> {
  readonly pools: Map<string, V>[];
  readonly maxSlots: number;

  constructor(
    readonly prefixes: readonly string[],
    readonly capacities: readonly number[],
    readonly create: () => V,
  ) {
    this.pools = prefixes.map(() => new Map());
    this.maxSlots = capacities.reduce((a, b) => a + b, 0);
  }

  get size(): number {
    return this.pools.reduce((sum, pool) => sum + pool.size, 0);
  }

  get(key: string): V | undefined {
    return this.pools[this.#poolOf(key)]!.get(key);
  }

  /** Keys from least to most recently written, pool after pool. */
  keys(): string[] {
    return this.pools.flatMap((pool) => [...pool.keys()]);
  }

  touch(key: string): V {
    const p = this.#poolOf(key);
    const pool = this.pools[p]!;
    let value = pool.get(key);
    if (value !== undefined) pool.delete(key);
    else {
      value = this.create();
      if (pool.size >= this.capacities[p]!) pool.delete(pool.keys().next().value!);
      else if (this.size >= this.maxSlots) {
        const over = this.pools.find((other, q) => other.size > this.capacities[q]!)!;
        over.delete(over.keys().next().value!);
      }
    }
    pool.set(key, value);
    return value;
  }

  #poolOf(key: string): number {
    const p = this.prefixes.findIndex((prefix) => key.startsWith(prefix));
    if (p < 0) throw new Error(`key '${key}' has no pool`);
    return p;
  }
}

export interface ReferenceAffinity {
  items: Map<number, number>;
  /** Each item's undecayed total: the weights recorded, summed. */
  totals: Map<number, number>;
  purchases: number[];
  landmark: number;
}

export class ReferenceAffinities {
  readonly shoppers: ReferenceLru<ReferenceAffinity>;

  constructor(
    max: number,
    readonly halfLifeMs: number,
    readonly perShopper: number,
    readonly purchasesPerShopper: number,
  ) {
    this.shoppers = new ReferenceLru(max, () => ({ items: new Map(), totals: new Map(), purchases: [], landmark: Number.NaN }));
  }

  record(key: string, item: number, weight: number, t: number, purchase: boolean): void {
    const a = this.shoppers.touch(key);
    if (Number.isNaN(a.landmark)) a.landmark = t;
    let exponent = (t - a.landmark) * (1 / this.halfLifeMs);
    if (exponent > 64) {
      for (const [id, value] of a.items) a.items.set(id, Math.fround(value * 2 ** -exponent));
      a.landmark = t;
      exponent = 0;
    }
    if (purchase && !a.purchases.includes(item)) {
      a.purchases.push(item);
      if (a.purchases.length > this.purchasesPerShopper) a.purchases.shift();
    }
    a.items.set(item, Math.fround((a.items.get(item) ?? 0) + weight * 2 ** exponent));
    a.totals.set(item, Math.fround((a.totals.get(item) ?? 0) + weight));
    if (a.items.size > this.perShopper) {
      let weakest = -1;
      let min = Infinity;
      for (const [id, value] of a.items) if (value < min) (min = value), (weakest = id);
      a.items.delete(weakest);
      a.totals.delete(weakest);
    }
  }
}
