// Per-shopper state with a bound on the number of shoppers: the least recently written shopper
// is dropped first (a Map keeps insertion order, so re-inserting on write makes it an LRU).

export type ShopperKey = string;

/** Keys of a shopper: a logged-in customer and a browser session are tracked separately. */
export function customerKey(customerId: string): ShopperKey {
  return 'c:' + customerId;
}

export function sessionKey(sessionId: string): ShopperKey {
  return 's:' + sessionId;
}

export class ShopperMap<V> {
  readonly #entries = new Map<ShopperKey, V>();
  /** The most recently written key. */
  #newest: ShopperKey | undefined;

  constructor(
    readonly maxShoppers: number,
    readonly create: () => V,
  ) {}

  get(key: ShopperKey): V | undefined {
    return this.#entries.get(key);
  }

  /** The shopper's value, created if absent, marked most recently written. */
  touch(key: ShopperKey): V {
    // A shopper's events come in runs: the newest entry needs no move (saves a delete and an insert).
    if (key === this.#newest) return this.#entries.get(key)!;
    let value = this.#entries.get(key);
    if (value === undefined) value = this.create();
    else this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
    if (this.#entries.size > this.maxShoppers) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return value;
  }

  /** Entries from least to most recently written (the order a restore must keep). */
  entries(): IterableIterator<[ShopperKey, V]> {
    return this.#entries.entries();
  }

  /** Puts an entry back as most recently written (restoring a snapshot, in order). */
  restore(key: ShopperKey, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#newest = key;
  }

  get size(): number {
    return this.#entries.size;
  }
}
