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
  /** Prune scratch: positions of a full row plus the newcomer, and the entries kept. */
  readonly #order: number[] = [];
  readonly #keptIds: Int32Array;
  readonly #keptWeights: Float32Array;

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
    this.#keptIds = new Int32Array(kept);
    this.#keptWeights = new Float32Array(kept);
  }

  /** Adds `weight` (> 0) to the pair (row, id). */
  add(row: number, id: number, weight: number): void {
    if (row >= this.#rowClass.length) this.#growRows(row + 1);
    if (this.#rowClass[row] === 0) this.#moveTo(row, 0);
    const position = this.#find(row, id);
    if (position >= 0) {
      this.#weights[this.weightStart(row) + position] += weight;
      return;
    }
    const size = this.#classSize[this.#rowClass[row]! - 1]!;
    if (this.#rowFill[row] === size) {
      if (size === this.capacity) {
        this.#prune(row, id, weight);
        return;
      }
      this.#moveTo(row, this.#rowClass[row]!);
    }
    const at = this.#rowFill[row]!;
    this.#ids[this.#rowStart[row]! + at] = id;
    this.#weights[this.weightStart(row) + at] = weight;
    this.#index(row, id, at);
    this.#rowFill[row] = at + 1;
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
    this.#bytes = new Uint8Array(0);
    this.#used = 0;
    this.#reserve(data.pool.length / 4);
    this.#bytes.set(data.pool);
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
   * strongest stay, rewritten strongest first (ties in row order).
   */
  #prune(row: number, id: number, weight: number): void {
    const start = this.#rowStart[row]!;
    const weightsAt = this.weightStart(row);
    const ids = this.#ids;
    const weights = this.#weights;
    const capacity = this.capacity;
    const order = this.#order;
    const keptIds = this.#keptIds;
    const keptWeights = this.#keptWeights;
    order.length = capacity + 1;
    for (let k = 0; k <= capacity; k++) order[k] = k;
    const newWeight = Math.fround(weight);
    const weightAt = (k: number) => (k === capacity ? newWeight : weights[weightsAt + k]!);
    order.sort((a, b) => weightAt(b) - weightAt(a) || a - b);
    for (let r = 0; r < this.kept; r++) {
      const k = order[r]!;
      keptIds[r] = k === capacity ? id : ids[start + k]!;
      keptWeights[r] = weightAt(k);
    }
    const indexAt = (start + 2 * capacity) * 4;
    this.#bytes.fill(0, indexAt, indexAt + this.#classSlots[this.#rowClass[row]! - 1]!);
    for (let r = 0; r < this.kept; r++) {
      ids[start + r] = keptIds[r]!;
      weights[weightsAt + r] = keptWeights[r]!;
      this.#index(row, keptIds[r]!, r);
    }
    this.#rowFill[row] = this.kept;
  }

  /** Makes the pool hold at least `words` words (grows by half). */
  #reserve(words: number): void {
    if (words * 4 <= this.#bytes.length) return;
    let size = Math.max(4096, this.#bytes.length / 4);
    while (size < words) size = Math.ceil(size * 1.5);
    const bytes = new Uint8Array(size * 4);
    bytes.set(this.#bytes.subarray(0, this.#used * 4));
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
