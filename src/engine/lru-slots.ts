// String keys (shoppers, baskets) mapped to dense slots 0 … maxSlots−1, least recently written
// dropped first: the one Map of the key space, with a RecencyList (two Int32Arrays), so a
// write is a lookup and two link updates and eviction is O(1). Owners keep per-slot state in
// typed arrays indexed by slot and clear it when a slot is handed to a new key (onReuse).
import { RecencyList } from './recency-list.js';
import { bytesOf, fromBytes } from './typed-arrays.js';

export interface LruSlotsSnapshot {
  keys: string[];
  /** Slots from least to most recently written (Int32Array bytes). */
  order: Uint8Array;
}

export class LruSlots {
  readonly #slotOf = new Map<string, number>();
  readonly #keys: string[] = [];
  readonly #recency: RecencyList;
  readonly #reuseListeners: ((slot: number) => void)[] = [];

  constructor(readonly maxSlots: number) {
    if (!Number.isInteger(maxSlots) || maxSlots < 1) throw new RangeError(`maxSlots must be a positive integer, got ${maxSlots}`);
    this.#recency = new RecencyList(maxSlots);
  }

  /** Called with a slot about to hold a new key (after evicting its old one): clear its state. */
  onReuse(listener: (slot: number) => void): void {
    this.#reuseListeners.push(listener);
  }

  /** The key's slot, or -1; reading does not count as a write. */
  slotOf(key: string): number {
    return this.#slotOf.get(key) ?? -1;
  }

  keyOf(slot: number): string {
    return this.#keys[slot]!;
  }

  get size(): number {
    return this.#slotOf.size;
  }

  /** The key's slot, created if absent (evicting the least recently written key when full), marked newest. */
  touch(key: string): number {
    let slot = this.#slotOf.get(key);
    if (slot === undefined) return this.#assign(key);
    this.#recency.touch(slot);
    return slot;
  }

  /** Slots from least to most recently written (the order a restore must replay). */
  *oldestFirst(): IterableIterator<number> {
    const recency = this.#recency;
    for (let slot = recency.oldest; slot !== -1; slot = recency.newerThan(slot)) yield slot;
  }

  /** Keys by slot (the live array: copy it before the next write), and the slots from least to most recently written: what a snapshot stores. */
  snapshot(): LruSlotsSnapshot {
    const order = new Int32Array(this.#keys.length);
    let k = 0;
    const recency = this.#recency;
    for (let slot = recency.oldest; slot !== -1; slot = recency.newerThan(slot)) order[k++] = slot;
    return { keys: this.#keys, order: bytesOf(order) };
  }

  /** Restores a snapshot into an empty table: the same keys in the same slots and recency. */
  restore(snapshot: LruSlotsSnapshot): void {
    if (this.#keys.length > 0) throw new Error('restore needs an empty slot table');
    if (snapshot.keys.length > this.maxSlots) throw new Error(`a snapshot of ${snapshot.keys.length} slots does not fit ${this.maxSlots}`);
    // One by one: a spread of 200k keys into push() overflows the call stack.
    for (let slot = 0; slot < snapshot.keys.length; slot++) {
      const key = snapshot.keys[slot]!;
      this.#keys.push(key);
      this.#slotOf.set(key, slot);
    }
    this.#recency.reserve(snapshot.keys.length);
    const order = fromBytes(Int32Array, snapshot.order);
    if (order.length !== snapshot.keys.length) throw new Error('slot snapshot order does not match its keys');
    for (const slot of order) this.#recency.linkNewest(slot);
  }

  #assign(key: string): number {
    let slot: number;
    if (this.#slotOf.size < this.maxSlots) {
      slot = this.#keys.length;
      this.#keys.push(key);
      this.#recency.reserve(slot + 1);
    } else {
      slot = this.#recency.oldest;
      this.#recency.unlink(slot);
      this.#slotOf.delete(this.#keys[slot]!);
      this.#keys[slot] = key;
      for (const listener of this.#reuseListeners) listener(slot);
    }
    this.#slotOf.set(key, slot);
    this.#recency.linkNewest(slot);
    return slot;
  }
}
