// Per-item neighbour rows in typed arrays: each row keeps at least the K strongest neighbours and
// buffers up to 2K. When a full row meets a new neighbour, of its 2K entries and the newcomer the
// K strongest stay (ties: the earlier entry first): a neighbour that keeps recurring stays, one-off
// pairs come and go. A kept weight never exceeds the true weight; it falls short only for a pair
// that was pruned and came back (it restarts from its new weight).
// Memory follows the neighbours actually held, never the number of events: a row lives in a block
// of 4, 8, 16 … 2K entries, moving to the next size as it fills (blocks of one size are reused
// through a free list), so rows × 2K × 10 bytes is the bound and a long tail of products with few
// neighbours costs little. A block holds its ids, then their weights in insertion order, then an
// open-addressing index (linear probing, two one-byte slots per entry, holding position + 1) from
// neighbour id to position: adding to a pair is a probe or two, not a scan of the row.
// Weights are float32 (24-bit mantissa: whole counts exact up to 16,777,216).

import { bytesOf, fromBytes } from './typed-arrays.js';

/** Positions + 1 (≤ 2K) fit the one-byte index slots. */
export const MAX_KEPT = 127;
const SMALLEST_BLOCK = 4;

/** A table's contents as bytes (what a snapshot stores). */
export interface NeighborTableData {
  kept: number;
  /** Per row: block size class + 1 (0: no block), entries, block offset in words (Int32Array bytes). */
  rowClass: Uint8Array;
  rowFill: Uint8Array;
  rowStart: Uint8Array;
  /** The block pool up to its high-water mark, and each size class's free blocks (Int32Array bytes). */
  pool: Uint8Array;
  free: Uint8Array[];
}

export class NeighborTable {
  /** Entries a row holds before it is pruned (2K). */
  readonly capacity: number;
  /** Per size class: entries, index slots, hash shift, block size in words. */
  readonly #classSize: number[] = [];
  readonly #classSlots: number[] = [];
  readonly #classShift: number[] = [];
  readonly #classWords: number[] = [];
  #rowClass = new Uint8Array(0);
  #rowFill = new Uint8Array(0);
  #rowStart = new Int32Array(0);
  #bytes = new Uint8Array(0);
  #ids = new Int32Array(0);
  #weights = new Float32Array(0);
  /** Words of the pool handed out so far; blocks past it are unused. */
  #used = 0;
  #free: number[][] = [];
  /** Prune scratch: the weights of a full row plus the newcomer's. */
  readonly #scratch: Float32Array;

  /** @param kept neighbours a prune keeps per row (K), 1 to MAX_KEPT */
  constructor(readonly kept: number) {
    if (!Number.isInteger(kept) || kept < 1 || kept > MAX_KEPT) throw new RangeError(`neighbours kept must be an integer from 1 to ${MAX_KEPT}, got ${kept}`);
    this.capacity = 2 * kept;
    for (let size = Math.min(SMALLEST_BLOCK, this.capacity); ; size = Math.min(2 * size, this.capacity)) {
      const bits = Math.max(3, Math.ceil(Math.log2(2 * size)));
      this.#classSize.push(size);
      this.#classSlots.push(1 << bits);
      this.#classShift.push(32 - bits);
      this.#classWords.push(2 * size + (1 << bits) / 4);
      this.#free.push([]);
      if (size === this.capacity) break;
    }
    this.#scratch = new Float32Array(this.capacity + 1);
  }

  /** Adds `weight` (> 0) to the pair (row, id). */
  add(row: number, id: number, weight: number): void {
    if (row >= this.#rowClass.length) this.#growRows(row + 1);
    let sizeClass = this.#rowClass[row]! - 1;
    if (sizeClass < 0) {
      this.#moveTo(row, 0);
      sizeClass = 0;
    }
    // One probe finds the pair or the free index slot a new entry takes.
    const start = this.#rowStart[row]!;
    const size = this.#classSize[sizeClass]!;
    const bytes = this.#bytes;
    const ids = this.#ids;
    const indexAt = (start + 2 * size) * 4;
    const mask = this.#classSlots[sizeClass]! - 1;
    let slot = Math.imul(id, 0x9e3779b1) >>> this.#classShift[sizeClass]!;
    for (let entry = bytes[indexAt + slot]!; entry !== 0; entry = bytes[indexAt + slot]!) {
      if (ids[start + entry - 1] === id) {
        this.#weights[start + size + entry - 1] += weight;
        return;
      }
      slot = (slot + 1) & mask;
    }
    const fill = this.#rowFill[row]!;
    if (fill < size) {
      ids[start + fill] = id;
      this.#weights[start + size + fill] = weight;
      bytes[indexAt + slot] = fill + 1;
      this.#rowFill[row] = fill + 1;
      return;
    }
    if (size === this.capacity) {
      this.#prune(row, id, weight);
      return;
    }
    this.#moveTo(row, sizeClass + 1);
    this.#ids[this.#rowStart[row]! + fill] = id;
    this.#weights[this.weightStart(row) + fill] = weight;
    this.#index(row, id, fill);
    this.#rowFill[row] = fill + 1;
  }

  /** The pair's weight; 0 when not kept. */
  weight(row: number, id: number): number {
    const position = this.size(row) > 0 ? this.#find(row, id) : -1;
    return position < 0 ? 0 : this.#weights[this.weightStart(row) + position]!;
  }

  /** Number of entries in the row. */
  size(row: number): number {
    return row < this.#rowFill.length ? this.#rowFill[row]! : 0;
  }

  /** The row's neighbour ids are `ids[start(row) + k]` for k < size(row), in the order they joined. */
  start(row: number): number {
    return row < this.#rowStart.length ? this.#rowStart[row]! : 0;
  }

  /** Their weights are `weights[weightStart(row) + k]`. */
  weightStart(row: number): number {
    const sizeClass = row < this.#rowClass.length ? this.#rowClass[row]! : 0;
    return sizeClass === 0 ? 0 : this.#rowStart[row]! + this.#classSize[sizeClass - 1]!;
  }

  /** Entry arrays (see `start`): valid until the next add (a grow replaces them). */
  get ids(): Int32Array {
    return this.#ids;
  }

  get weights(): Float32Array {
    return this.#weights;
  }

  /** Multiplies every weight by `factor` (re-basing forward-decayed weights). */
  scale(factor: number): void {
    for (let row = 0; row < this.#rowFill.length; row++) {
      const at = this.weightStart(row);
      for (let k = 0; k < this.#rowFill[row]!; k++) this.#weights[at + k] *= factor;
    }
  }

  /** Total entries held, for sizing reports. */
  entries(): number {
    let total = 0;
    for (let row = 0; row < this.#rowFill.length; row++) total += this.#rowFill[row]!;
    return total;
  }

  /** Bytes of typed-array storage. */
  get bytes(): number {
    return this.#bytes.byteLength + this.#rowClass.byteLength + this.#rowFill.byteLength + this.#rowStart.byteLength;
  }

  /** Bytes of the pool handed out to blocks (used or on a free list): the pool's pages actually touched. */
  get usedBytes(): number {
    return 4 * this.#used;
  }

  /** The table's rows, pool and free lists as views of the live arrays (copy them before the next add): what a snapshot stores. */
  export(): NeighborTableData {
    let rows = this.#rowClass.length;
    while (rows > 0 && this.#rowClass[rows - 1] === 0) rows--;
    return {
      kept: this.kept,
      rowClass: this.#rowClass.subarray(0, rows),
      rowFill: this.#rowFill.subarray(0, rows),
      rowStart: bytesOf(this.#rowStart.subarray(0, rows)),
      pool: this.#bytes.subarray(0, this.#used * 4),
      free: this.#free.map((list) => bytesOf(Int32Array.from(list))),
    };
  }

  /** Replaces the contents with an export of a table that keeps as many neighbours (same layout, same future prunes). */
  import(data: NeighborTableData): void {
    const rows = data.rowClass.length;
    if (data.kept !== this.kept || data.rowFill.length !== rows || data.rowStart.length !== 4 * rows || data.free.length !== this.#free.length || data.pool.length % 4 !== 0) {
      throw new Error(`neighbour table data does not fit a table keeping ${this.kept}`);
    }
    this.#rowClass = new Uint8Array(0);
    this.#rowFill = new Uint8Array(0);
    this.#rowStart = new Int32Array(0);
    this.#growRows(rows);
    this.#rowClass.set(data.rowClass);
    this.#rowFill.set(data.rowFill);
    this.#rowStart.set(fromBytes(Int32Array, data.rowStart));
    // A pool read fresh from a snapshot is taken over, not copied (~100 MB at 100k products).
    this.#usePool(fromBytes(Uint8Array, data.pool));
    this.#used = data.pool.length / 4;
    this.#free = data.free.map((list) => Array.from(fromBytes(Int32Array, list)));
  }

  /** Position of `id` in the row (which has a block), or -1. */
  #find(row: number, id: number): number {
    const sizeClass = this.#rowClass[row]! - 1;
    const start = this.#rowStart[row]!;
    const bytes = this.#bytes;
    const ids = this.#ids;
    const indexAt = (start + 2 * this.#classSize[sizeClass]!) * 4;
    const mask = this.#classSlots[sizeClass]! - 1;
    for (let slot = Math.imul(id, 0x9e3779b1) >>> this.#classShift[sizeClass]!; ; slot = (slot + 1) & mask) {
      const entry = bytes[indexAt + slot]!;
      if (entry === 0) return -1;
      if (ids[start + entry - 1] === id) return entry - 1;
    }
  }

  #index(row: number, id: number, position: number): void {
    const sizeClass = this.#rowClass[row]! - 1;
    const bytes = this.#bytes;
    const indexAt = (this.#rowStart[row]! + 2 * this.#classSize[sizeClass]!) * 4;
    const mask = this.#classSlots[sizeClass]! - 1;
    let slot = Math.imul(id, 0x9e3779b1) >>> this.#classShift[sizeClass]!;
    while (bytes[indexAt + slot] !== 0) slot = (slot + 1) & mask;
    bytes[indexAt + slot] = position + 1;
  }

  /** Moves the row into a fresh block of size class `sizeClass` (its entries and index follow). */
  #moveTo(row: number, sizeClass: number): void {
    const words = this.#classWords[sizeClass]!;
    const free = this.#free[sizeClass]!;
    let start: number;
    if (free.length > 0) {
      start = free.pop()!;
    } else {
      this.#reserve(this.#used + words);
      start = this.#used;
      this.#used += words;
    }
    const oldClass = this.#rowClass[row]!;
    const oldStart = this.#rowStart[row]!;
    const oldWeights = this.weightStart(row);
    const fill = this.#rowFill[row]!;
    this.#bytes.fill(0, start * 4, (start + words) * 4);
    this.#rowClass[row] = sizeClass + 1;
    this.#rowStart[row] = start;
    const weightsAt = start + this.#classSize[sizeClass]!;
    for (let k = 0; k < fill; k++) {
      const id = this.#ids[oldStart + k]!;
      this.#ids[start + k] = id;
      this.#weights[weightsAt + k] = this.#weights[oldWeights + k]!;
      this.#index(row, id, k);
    }
    if (oldClass !== 0) this.#free[oldClass - 1]!.push(oldStart);
  }

  /**
   * A full row meets a new neighbour: of its entries and the newcomer (last in row order), the K
   * strongest stay, in row order (ties: the earlier entry). The K-th strongest weight is found by
   * selection on a scratch copy (linear, no sort, no closure).
   */
  #prune(row: number, id: number, weight: number): void {
    const start = this.#rowStart[row]!;
    const weightsAt = this.weightStart(row);
    const ids = this.#ids;
    const weights = this.#weights;
    const capacity = this.capacity;
    const kept = this.kept;
    const scratch = this.#scratch;
    for (let k = 0; k < capacity; k++) scratch[k] = weights[weightsAt + k]!;
    const newWeight = Math.fround(weight);
    scratch[capacity] = newWeight;
    const threshold = kthLargest(scratch, capacity + 1, kept);
    // Everything above the threshold stays; of the entries equal to it, the earliest fill the rest.
    let above = newWeight > threshold ? 1 : 0;
    for (let k = 0; k < capacity; k++) if (weights[weightsAt + k]! > threshold) above++;
    let ties = kept - above;
    let r = 0;
    for (let k = 0; k < capacity; k++) {
      const w = weights[weightsAt + k]!;
      if (w > threshold || (w === threshold && ties-- > 0)) {
        ids[start + r] = ids[start + k]!;
        weights[weightsAt + r] = w;
        r++;
      }
    }
    if (r < kept) {
      ids[start + r] = id;
      weights[weightsAt + r] = newWeight;
    }
    const indexAt = (start + 2 * capacity) * 4;
    this.#bytes.fill(0, indexAt, indexAt + this.#classSlots[this.#rowClass[row]! - 1]!);
    for (let q = 0; q < kept; q++) this.#index(row, ids[start + q]!, q);
    this.#rowFill[row] = kept;
  }

  /** Makes the pool hold at least `words` words (grows by half). */
  #reserve(words: number): void {
    if (words * 4 <= this.#bytes.length) return;
    let size = Math.max(4096, this.#bytes.length / 4);
    while (size < words) size = Math.ceil(size * 1.5);
    const bytes = new Uint8Array(size * 4);
    bytes.set(this.#bytes.subarray(0, this.#used * 4));
    this.#usePool(bytes);
  }

  /** Makes `bytes` (a whole buffer of whole words) the pool, with its id and weight views. */
  #usePool(bytes: Uint8Array): void {
    this.#bytes = bytes;
    this.#ids = new Int32Array(bytes.buffer);
    this.#weights = new Float32Array(bytes.buffer);
  }

  #growRows(minRows: number): void {
    let rows = Math.max(64, this.#rowClass.length);
    while (rows < minRows) rows = Math.ceil(rows * 1.5);
    const grow = <T extends Uint8Array | Int32Array>(old: T, make: (n: number) => T): T => {
      const next = make(rows);
      next.set(old);
      return next;
    };
    this.#rowClass = grow(this.#rowClass, (n) => new Uint8Array(n));
    this.#rowFill = grow(this.#rowFill, (n) => new Uint8Array(n));
    this.#rowStart = grow(this.#rowStart, (n) => new Int32Array(n));
  }
}

/**
 * The k-th largest of values[0 … n−1] (Hoare's quickselect; reorders `values`). Linear on
 * average; the middle pivot keeps already-ordered rows from the quadratic case.
 */
export function kthLargest(values: Float32Array, n: number, k: number): number {
  const target = n - k; // its position in ascending order
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const pivot = values[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return values[target]!;
  }
  return values[target]!;
}
