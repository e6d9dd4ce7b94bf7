// Per feature, the products that have it, all lists in one Int32Array pool: a list lives in a
// block of 1, 2, 4 … ids and moves to a block twice the size when it fills (blocks of one size are
// reused through a free list). A catalog has about as many features as products (most of them
// held by one product: a rare tag, a one-off title word), so one typed array per feature would
// cost ~200 bytes of objects each; here a feature costs 9 bytes of bookkeeping plus its ids (within 2×).
// Order within a list is not meaningful: a removal moves the list's last id into the gap.
import { grownTo } from './typed-arrays.js';

export class PostingLists {
  #count = 0;
  #start = new Int32Array(64);
  #size = new Int32Array(64);
  /** Per list: its block's size class + 1 (0: no block yet); class c holds 2^c ids. */
  #blockClass = new Uint8Array(64);
  #pool = new Int32Array(1024);
  /** Ids of the pool handed out to blocks so far. */
  #used = 0;
  readonly #free: number[][] = [];

  /** Number of lists (feature ids 0 … count − 1). */
  get count(): number {
    return this.#count;
  }

  /** Adds an empty list; returns its feature id. */
  addList(): number {
    const feature = this.#count++;
    if (feature >= this.#start.length) {
      this.#start = grownTo(this.#start, feature + 1);
      this.#size = grownTo(this.#size, this.#start.length);
      this.#blockClass = grownTo(this.#blockClass, this.#start.length);
    }
    return feature;
  }

  size(feature: number): number {
    return this.#size[feature]!;
  }

  /** The list's ids are `ids()[start(feature) … start(feature) + size(feature) − 1]`. */
  start(feature: number): number {
    return this.#start[feature]!;
  }

  /** The pool every list lives in: valid until the next add (a grow replaces it). */
  ids(): Int32Array {
    return this.#pool;
  }

  /** Adds `id` (the caller never adds one twice). */
  add(feature: number, id: number): void {
    const size = this.#size[feature]!;
    const blockClass = this.#blockClass[feature]! - 1;
    if (blockClass < 0 || size === 1 << blockClass) this.#moveTo(feature, blockClass + 1);
    this.#pool[this.#start[feature]! + size] = id;
    this.#size[feature] = size + 1;
  }

  /** Empties the list (its block stays its own). */
  clear(feature: number): void {
    this.#size[feature] = 0;
  }

  /** Removes `id` if present (a scan: removals are catalog edits, rare next to reads). */
  remove(feature: number, id: number): void {
    const pool = this.#pool;
    const start = this.#start[feature]!;
    const last = start + this.#size[feature]! - 1;
    for (let i = start; i <= last; i++) {
      if (pool[i] !== id) continue;
      pool[i] = pool[last]!;
      this.#size[feature]--;
      return;
    }
  }

  /** Moves the list into a block of class `blockClass` (its free list first, else the pool's end). */
  #moveTo(feature: number, blockClass: number): void {
    while (this.#free.length <= blockClass) this.#free.push([]);
    let start = this.#free[blockClass]!.pop();
    if (start === undefined) {
      start = this.#used;
      this.#used += 1 << blockClass;
      if (this.#used > this.#pool.length) {
        let length = this.#pool.length;
        while (length < this.#used) length = Math.ceil(length * 1.5);
        const pool = new Int32Array(length);
        pool.set(this.#pool.subarray(0, start));
        this.#pool = pool;
      }
    }
    const old = this.#blockClass[feature]! - 1;
    if (old >= 0) {
      const from = this.#start[feature]!;
      this.#pool.copyWithin(start, from, from + this.#size[feature]!);
      this.#free[old]!.push(from);
    }
    this.#blockClass[feature] = blockClass + 1;
    this.#start[feature] = start;
  }
}
