// Short per-shopper lists (histories, affinities, open groups) for every slot of an LruSlots
// table, each in a block sized to what it holds: 2, 4, 8 … up to `maxEntries` entries, a list
// moving to the next size as it fills and back to the free list when its slot is handed to a new
// key. Most shoppers touch a handful of products, so memory follows the entries held (within 2×)
// instead of slots × maxEntries. An entry has one element in each lane (parallel typed arrays:
// product ids, times, values) at the same index, so a list is `lane[start(slot) + k]`, k < size(slot).
import type { LruSlots } from './lru-slots.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

type LaneArray = Int32Array | Float32Array | Float64Array;
type LaneTypes<T extends readonly LaneArray[]> = {
  readonly [K in keyof T]: { new (length: number): T[K]; new (buffer: ArrayBuffer): T[K]; readonly BYTES_PER_ELEMENT: number };
};

const SMALLEST_BLOCK = 2;

/** The blocks as bytes (what a snapshot stores). */
export interface SlotBlocksSnapshot {
  /** Per slot: size class + 1 (0: no block), entries held (Uint16Array bytes), block start (Int32Array bytes). */
  blockClass: Uint8Array;
  fill: Uint8Array;
  start: Uint8Array;
  /** Each lane up to the pool's high-water mark. */
  lanes: Uint8Array[];
  /** Each size class's free block starts (Int32Array bytes). */
  free: Uint8Array[];
}

export class SlotBlocks<T extends readonly LaneArray[]> {
  readonly #classSize: number[] = [];
  #blockClass = new Uint8Array(0);
  #fill = new Uint16Array(0);
  #start = new Int32Array(0);
  #lanes: T;
  /** Entries of the pool handed out so far; blocks past it are unused. */
  #used = 0;
  #free: number[][] = [];

  /** @param maxEntries entries a list holds at most, 1 to 65,535 */
  constructor(
    readonly slots: LruSlots,
    readonly maxEntries: number,
    readonly laneTypes: LaneTypes<T>,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > 65_535) throw new RangeError(`entries per slot must be 1-65535, got ${maxEntries}`);
    for (let size = Math.min(SMALLEST_BLOCK, maxEntries); ; size = Math.min(2 * size, maxEntries)) {
      this.#classSize.push(size);
      this.#free.push([]);
      if (size === maxEntries) break;
    }
    this.#lanes = laneTypes.map((make) => new make(0)) as unknown as T;
    slots.onReuse((slot) => this.clear(slot));
  }

  /** The lanes: valid until the next reserve (a grow replaces them). */
  get lanes(): T {
    return this.#lanes;
  }

  size(slot: number): number {
    return slot >= 0 && slot < this.#fill.length ? this.#fill[slot]! : 0;
  }

  start(slot: number): number {
    return slot >= 0 && slot < this.#start.length ? this.#start[slot]! : 0;
  }

  /** Makes the slot's block hold at least `entries` (≤ maxEntries) entries; start and lanes may change. */
  reserve(slot: number, entries: number): void {
    if (slot >= this.#blockClass.length) {
      this.#blockClass = grownTo(this.#blockClass, slot + 1, this.slots.maxSlots);
      this.#fill = grownTo(this.#fill, this.#blockClass.length);
      this.#start = grownTo(this.#start, this.#blockClass.length);
    }
    const current = this.#blockClass[slot]!;
    if (current !== 0 && this.#classSize[current - 1]! >= entries) return;
    if (entries > this.maxEntries) throw new RangeError(`a slot holds at most ${this.maxEntries} entries, asked for ${entries}`);
    let sizeClass = current;
    while (this.#classSize[sizeClass]! < entries) sizeClass++;
    this.#moveTo(slot, sizeClass);
  }

  /** Sets the number of entries the slot holds (within its reserved block). */
  setSize(slot: number, entries: number): void {
    this.#fill[slot] = entries;
  }

  /** Removes the slot's entry `k` (< size), moving the entries after it down one in every lane. */
  removeAt(slot: number, k: number): void {
    const start = this.#start[slot]!;
    const fill = this.#fill[slot]!;
    for (const lane of this.#lanes) lane.copyWithin(start + k, start + k + 1, start + fill);
    this.#fill[slot] = fill - 1;
  }

  /** Empties the slot and returns its block to the free list. */
  clear(slot: number): void {
    if (slot >= this.#blockClass.length || this.#blockClass[slot] === 0) return;
    this.#free[this.#blockClass[slot]! - 1]!.push(this.#start[slot]!);
    this.#blockClass[slot] = 0;
    this.#fill[slot] = 0;
    this.#start[slot] = 0;
  }

  /** Entries of pool storage in use or free (for sizing reports). */
  get poolEntries(): number {
    return this.#used;
  }

  /** The blocks as views of the live arrays (copy them before the next change): what a snapshot stores. */
  snapshot(): SlotBlocksSnapshot {
    let slots = this.#blockClass.length;
    while (slots > 0 && this.#blockClass[slots - 1] === 0) slots--;
    return {
      blockClass: this.#blockClass.subarray(0, slots),
      fill: bytesOf(this.#fill.subarray(0, slots)),
      start: bytesOf(this.#start.subarray(0, slots)),
      lanes: this.#lanes.map((lane) => bytesOf(lane.subarray(0, this.#used))),
      free: this.#free.map((list) => bytesOf(Int32Array.from(list))),
    };
  }

  /** Restores a snapshot of blocks with the same lanes and maxEntries (into empty blocks). */
  restore(snapshot: SlotBlocksSnapshot): void {
    const slots = snapshot.blockClass.length;
    if (snapshot.fill.length !== 2 * slots || snapshot.start.length !== 4 * slots || snapshot.lanes.length !== this.laneTypes.length || snapshot.free.length !== this.#free.length) {
      throw new Error('slot block snapshot does not fit these blocks');
    }
    this.#blockClass = Uint8Array.from(snapshot.blockClass); // a copy, and a plain Uint8Array whatever the decoder gave
    this.#fill = fromBytes(Uint16Array, snapshot.fill);
    this.#start = fromBytes(Int32Array, snapshot.start);
    this.#lanes = this.laneTypes.map((make, i) => fromBytes(make, snapshot.lanes[i]!)) as unknown as T;
    this.#used = this.#lanes[0]!.length;
    if (this.#lanes.some((lane) => lane.length !== this.#used)) throw new Error('slot block lanes differ in length');
    this.#free = snapshot.free.map((list) => Array.from(fromBytes(Int32Array, list)));
  }

  /** Moves the slot's entries into a block of `sizeClass` (from its free list, else the pool's end). */
  #moveTo(slot: number, sizeClass: number): void {
    const size = this.#classSize[sizeClass]!;
    let start = this.#free[sizeClass]!.pop();
    if (start === undefined) {
      this.#reserveEntries(this.#used + size);
      start = this.#used;
      this.#used += size;
    }
    const oldClass = this.#blockClass[slot]!;
    if (oldClass !== 0) {
      const from = this.#start[slot]!;
      for (const lane of this.#lanes) lane.copyWithin(start, from, from + this.#fill[slot]!);
      this.#free[oldClass - 1]!.push(from);
    }
    this.#blockClass[slot] = sizeClass + 1;
    this.#start[slot] = start;
  }

  /** Makes every lane hold at least `entries` (grows by half). */
  #reserveEntries(entries: number): void {
    const length = this.#lanes[0]!.length;
    if (entries <= length) return;
    let next = Math.max(1024, length);
    while (next < entries) next = Math.ceil(next * 1.5);
    this.#lanes = this.#lanes.map((lane, i) => {
      const grown: LaneArray = new this.laneTypes[i]!(next); // the declared class, never a decoder's subclass
      grown.set(lane.subarray(0, this.#used));
      return grown;
    }) as unknown as T;
  }
}
