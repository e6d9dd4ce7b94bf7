// String keys (shoppers, baskets) mapped to dense slots 0 … maxSlots−1, least recently written
// dropped first: one Map per key space, with a RecencyList (two Int32Arrays) per eviction pool, so a
// write is a lookup and two link updates and eviction is O(1). Owners keep per-slot state in typed
// arrays indexed by slot and clear it when a slot is handed to a new key (onReuse).
// Key spaces share one pool, or each has its own capacity: then a key is only ever evicted by a new
// key of its own space (a flood of new sessions cannot push out logged-in customers). Slots stay
// dense either way: the pools' capacities add up to maxSlots.
// A key is a space's prefix and an id ('c:' + customerId). The hot paths name the space and the id
// (touchIn, slotIn): building 'c:' + id per event made a new string for the Map to flatten and hash,
// ~0.7 µs a lookup against ~0.1 µs for the id itself. Whole keys (touch, slotOf, keyOf) still
// work: the prefix picks the space. Snapshots store the ids and each one's prefix, not whole keys.
import { RecencyList } from './recency-list.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

/**
 * Each slot's id and the prefix of its key space. Built as whole keys ('c:' + id), a 200k-shopper
 * table's snapshot held the event loop 27-66 ms in one turn; ids are copied as they are, and the
 * snapshot's string parts are encoded a slice per turn. Snapshots written before the key spaces hold
 * whole keys (`keys`) instead, and restore as they are.
 */
export type LruSlotsSnapshot = SpacedKeysSnapshot | WholeKeysSnapshot;

interface SpacedKeysSnapshot {
  /** The key spaces' prefixes, by space number when the snapshot was taken. */
  prefixes: string[];
  /** Per slot: its key's id, without the prefix. */
  ids: string[];
  /** Per slot: its key's space, an index into `prefixes`. */
  spaces: Uint8Array;
  /** Slots from least to most recently written (Int32Array bytes): per pool, pool after pool. */
  order: Uint8Array;
}

interface WholeKeysSnapshot {
  /** Per slot: its whole key. */
  keys: string[];
  order: Uint8Array;
}

export class LruSlots {
  /** Slots the table ever holds: the pools' capacities together. */
  readonly maxSlots: number;
  /** Per key space: id → slot. */
  readonly #slotOf: Map<string, number>[];
  /** Per slot: its key's id (without the prefix) and space. */
  readonly #ids: string[] = [];
  #spaces = new Uint8Array(0);
  /** Per key space: its eviction pool. */
  readonly #poolOf: number[];
  /** Per pool: its capacity, keys held, and their recency (8 bytes per slot of the table each). */
  readonly #capacity: number[];
  readonly #count: number[];
  readonly #recency: RecencyList[];
  readonly #reuseListeners: ((slot: number) => void)[] = [];

  /**
   * @param capacity slots of the one pool all key spaces share, or per key space (by space number)
   *   its own pool's capacity.
   * @param prefixes each key space's prefix, by space number; none may start another (a whole key
   *   belongs to the space whose prefix it starts with). Default: one space, keys taken whole.
   */
  constructor(
    capacity: number | readonly number[],
    readonly prefixes: readonly string[] = [''],
  ) {
    const capacities = typeof capacity === 'number' ? [capacity] : [...capacity];
    for (const c of capacities) if (!Number.isInteger(c) || c < 1) throw new RangeError(`a pool's capacity must be a positive integer, got ${c}`);
    if (prefixes.length < 1 || prefixes.length > 255) throw new RangeError('an LruSlots table has 1 to 255 key spaces');
    if (typeof capacity !== 'number' && capacities.length !== prefixes.length) throw new RangeError(`${capacities.length} pool capacities for ${prefixes.length} key spaces`);
    for (const a of prefixes) for (const b of prefixes) if (a !== b && b.startsWith(a)) throw new RangeError(`key prefix '${a}' starts '${b}'`);
    this.maxSlots = capacities.reduce((sum, c) => sum + c, 0);
    this.#capacity = capacities;
    this.#count = capacities.map(() => 0);
    this.#recency = capacities.map(() => new RecencyList(this.maxSlots));
    this.#poolOf = prefixes.map((_, space) => (typeof capacity === 'number' ? 0 : space));
    this.#slotOf = prefixes.map(() => new Map<string, number>());
  }

  /** Called with a slot about to hold a new key (after evicting its old one): clear its state. */
  onReuse(listener: (slot: number) => void): void {
    this.#reuseListeners.push(listener);
  }

  /** The slot of `id` in key space `space`, or -1; reading does not count as a write. */
  slotIn(space: number, id: string): number {
    return this.#slotOf[space]!.get(id) ?? -1;
  }

  /** The slot of `id` in key space `space`, created if absent (evicting the least recently written key when full), marked newest. */
  touchIn(space: number, id: string): number {
    const slot = this.#slotOf[space]!.get(id);
    if (slot === undefined) return this.#assign(space, id);
    this.#recency[this.#poolOf[space]!]!.touch(slot);
    return slot;
  }

  /** The key's slot, or -1; reading does not count as a write. */
  slotOf(key: string): number {
    const space = this.#spaceOf(key);
    return space < 0 ? -1 : this.slotIn(space, key.slice(this.prefixes[space]!.length));
  }

  /** The key's slot, created if absent, marked newest (as touchIn). */
  touch(key: string): number {
    const space = this.#spaceOf(key);
    if (space < 0) throw new RangeError(`key '${key}' has none of the prefixes ${this.prefixes.join(', ')}`);
    return this.touchIn(space, key.slice(this.prefixes[space]!.length));
  }

  /** The whole key (prefix and id) in `slot`. */
  keyOf(slot: number): string {
    return this.prefixes[this.#spaces[slot]!]! + this.#ids[slot]!;
  }

  /** The id (without the prefix) in `slot`. */
  idOf(slot: number): string {
    return this.#ids[slot]!;
  }

  /** The key space of the key in `slot`. */
  spaceOfSlot(slot: number): number {
    return this.#spaces[slot]!;
  }

  /** Keys held (slots are handed out in order and never given back, only reused). */
  get size(): number {
    return this.#ids.length;
  }

  /** Keys held in the pool of key space `space`. */
  sizeOf(space: number): number {
    return this.#count[this.#poolOf[space]!]!;
  }

  /** Slots from least to most recently written, pool after pool (the order a restore must replay). */
  *oldestFirst(): IterableIterator<number> {
    for (const recency of this.#recency) for (let slot = recency.oldest; slot !== -1; slot = recency.newerThan(slot)) yield slot;
  }

  /** Ids and spaces by slot, and each pool's slots from least to most recently written: what a snapshot stores. */
  snapshot(): LruSlotsSnapshot {
    const size = this.#ids.length;
    const order = new Int32Array(size);
    let k = 0;
    for (const slot of this.oldestFirst()) order[k++] = slot;
    return { prefixes: [...this.prefixes], ids: this.#ids.slice(), spaces: this.#spaces.slice(0, size), order: bytesOf(order) };
  }

  /**
   * Restores a snapshot into an empty table: the same keys in the same slots and, within each pool,
   * the same recency. A snapshot taken with other pools (one shared pool, before customers and
   * sessions had their own) restores as long as its keys fit maxSlots: a pool left over its capacity
   * gives its oldest slots to the others as they need them, and never grows.
   */
  restore(snapshot: LruSlotsSnapshot): void {
    if (this.#ids.length > 0) throw new Error('restore needs an empty slot table');
    const size = 'keys' in snapshot ? snapshot.keys.length : snapshot.ids.length;
    if (size > this.maxSlots) throw new Error(`a snapshot of ${size} slots does not fit ${this.maxSlots}`);
    this.#spaces = new Uint8Array(size);
    // One by one: a spread of 200k keys into push() overflows the call stack.
    if ('keys' in snapshot) {
      for (let slot = 0; slot < size; slot++) {
        const key = snapshot.keys[slot]!;
        const space = this.#spaceOf(key);
        if (space < 0) throw new Error(`snapshot key '${key}' has none of the prefixes ${this.prefixes.join(', ')}`);
        this.#restoreSlot(slot, space, key.slice(this.prefixes[space]!.length));
      }
    } else {
      if (snapshot.spaces.length !== size) throw new Error('slot snapshot spaces do not match its ids');
      const spaceOf = snapshot.prefixes.map((prefix) => this.prefixes.indexOf(prefix)); // the snapshot's space → this table's
      for (let slot = 0; slot < size; slot++) {
        const space = spaceOf[snapshot.spaces[slot]!] ?? -1;
        if (space < 0) throw new Error(`snapshot key '${String(snapshot.prefixes[snapshot.spaces[slot]!])}${snapshot.ids[slot]!}' has none of the prefixes ${this.prefixes.join(', ')}`);
        this.#restoreSlot(slot, space, snapshot.ids[slot]!);
      }
    }
    for (const recency of this.#recency) recency.reserve(size);
    const order = fromBytes(Int32Array, snapshot.order);
    if (order.length !== size) throw new Error('slot snapshot order does not match its keys');
    for (const slot of order) this.#recency[this.#poolOf[this.#spaces[slot]!]!]!.linkNewest(slot);
  }

  #restoreSlot(slot: number, space: number, id: string): void {
    this.#ids.push(id);
    this.#spaces[slot] = space;
    this.#slotOf[space]!.set(id, slot);
    this.#count[this.#poolOf[space]!]!++;
  }

  #assign(space: number, id: string): number {
    const pool = this.#poolOf[space]!;
    let slot: number;
    if (this.#count[pool]! < this.#capacity[pool]! && this.#ids.length < this.maxSlots) {
      slot = this.#ids.length;
      this.#ids.push(id);
      this.#spaces = grownTo(this.#spaces, slot + 1, this.maxSlots);
      for (const recency of this.#recency) recency.reserve(slot + 1);
    } else {
      // The pool's own oldest; a pool under its capacity in a full table takes the oldest of one over
      // its capacity (only after restoring a snapshot taken with other pools).
      slot = this.#recency[this.#count[pool]! < this.#capacity[pool]! ? this.#overCapacity() : pool]!.oldest;
      const old = this.#poolOf[this.#spaces[slot]!]!;
      this.#recency[old]!.unlink(slot);
      this.#count[old]!--;
      this.#slotOf[this.#spaces[slot]!]!.delete(this.#ids[slot]!);
      this.#ids[slot] = id;
      for (const listener of this.#reuseListeners) listener(slot);
    }
    this.#count[pool]!++;
    this.#spaces[slot] = space;
    this.#slotOf[space]!.set(id, slot);
    this.#recency[pool]!.linkNewest(slot);
    return slot;
  }

  /** A pool holding more keys than its capacity (there is one whenever the table is full and a pool is under its own). */
  #overCapacity(): number {
    const count = this.#count;
    for (let pool = 0; pool < count.length; pool++) if (count[pool]! > this.#capacity[pool]!) return pool;
    throw new Error('a full slot table with every pool within its capacity');
  }

  /** The space whose prefix `key` starts with, or -1. */
  #spaceOf(key: string): number {
    const prefixes = this.prefixes;
    for (let space = 0; space < prefixes.length; space++) if (key.startsWith(prefixes[space]!)) return space;
    return -1;
  }
}
