// Per-item neighbour rows in typed arrays: each row keeps at least the K strongest neighbours and
// buffers up to 2K. When a full row meets a new neighbour, of its 2K entries and the newcomer the
// K strongest stay (ties: the earlier entry first): a neighbour that keeps recurring stays, one-off
// pairs come and go. A kept weight never exceeds the true weight; it falls short only for a pair
// that was pruned and came back (it restarts from its new weight).
// Memory follows the neighbours actually held, never the number of events: a row lives in a block
// of 4, 8, 16 … 2K entries, moving to the next size as it fills (blocks of one size are reused
// through a free list), so rows × 2K × 10 bytes (14 with totals) is the bound and a long tail of
// products with few neighbours costs little. Blocks freed in small classes wait for rows that grow
// into them, fewer and fewer as a store matures: once they make up 1/32 of the pool, the next new
// block first compacts the pool in place (every row's block moved down, in pool order), so the
// pool's touched pages stay within 1/32 (and a block) of what its rows' blocks hold.
// A block holds its ids, then their weights in insertion order (then their totals), then an
// open-addressing index (linear probing, two one-byte slots per entry, holding position + 1) from
// neighbour id to position: adding to a pair is a probe or two, not a scan of the row. Each row's
// block offset, size class and fill sit side by side in one Int32Array (8 bytes a row), so an add
// to a random row misses the cache once for them, not three times.
// A table made `withTotals` keeps a second sum per entry after the weights: what the pair's adds
// came to before any decay (a decaying owner's weights fade, but how much evidence stands behind
// a pair does not). It costs 4 more bytes per entry. Such a table may be given a strength of
// weight and total to prune by ("strongest" above); without one, weight decides.
// Weights and totals are float32 (24-bit mantissa: whole counts exact up to 16,777,216).

import { bytesOf, fromBytes } from './typed-arrays.js';

/** Positions + 1 (≤ 2K) fit the one-byte index slots. */
export const MAX_KEPT = 127;
const SMALLEST_BLOCK = 4;
/** A row's second word: size class + 1 in the low byte, entries (≤ 2 × MAX_KEPT = 254) above. */
const CLASS_MASK = 0xff;
const FILL_SHIFT = 8;
/** A pool this large (32 MB) grows by an eighth, not by half. */
const LARGE_POOL_WORDS = 8 * 1024 * 1024;
/** The pool is compacted before it grows once free blocks make up this share of it. */
const COMPACT_AT_FREE_SHARE = 1 / 32;

/** A table's contents as bytes (what a snapshot stores). */
export interface NeighborTableData {
  kept: number;
  /** Whether each entry holds a total after its weight (the block layout differs). */
  withTotals: boolean;
  /**
   * Per row, two words (Int32Array bytes): the block's offset in words, then its size class + 1
   * (0: no block) in the low 8 bits and the entries above them. Stored as the table holds it, so a
   * snapshot copies it instead of decoding 100k rows in one turn (~17 ms in the interpreter).
   */
  rows?: Uint8Array;
  /** The same per row in three lists (size class + 1, entries, offset as Int32Array bytes): what snapshots held before `rows`, still restored. */
  rowClass?: Uint8Array;
  rowFill?: Uint8Array;
  rowStart?: Uint8Array;
  /** The block pool up to its high-water mark, and each size class's free blocks (Int32Array bytes). */
  pool: Uint8Array;
  free: Uint8Array[];
}

export class NeighborTable {
  /** Entries a row holds before it is pruned (2K). */
  readonly capacity: number;
  /** Words per entry in a block before its index: id and weight, and the total when kept. */
  readonly #lanes: number;
  /** Per size class: entries, index slots, hash shift, block size in words. */
  readonly #classSize: number[] = [];
  readonly #classSlots: number[] = [];
  readonly #classShift: number[] = [];
  readonly #classWords: number[] = [];
  /**
   * Two words per row, side by side so that an add finds both in one cache line (three arrays
   * cost a cache miss each at 100k rows): the block's offset in words, then its size class + 1
   * (0: no block) in the low byte and its entries in the next.
   */
  #rows = new Int32Array(0);
  #bytes = new Uint8Array(0);
  #ids = new Int32Array(0);
  #weights = new Float32Array(0);
  /** Words of the pool handed out so far; blocks past it are unused. */
  #used = 0;
  #free: number[][] = [];
  /** Words in the free lists' blocks. */
  #freeWords = 0;
  /** Prune scratch: the strengths of a full row plus the newcomer's, and a copy quickselect reorders. */
  readonly #strengths: Float32Array;
  readonly #scratch: Float32Array;

  /**
   * @param kept neighbours a prune keeps per row (K), 1 to MAX_KEPT
   * @param withTotals keep each entry's total beside its weight (see `add`); without, `totalStart` reads the weights
   * @param strength what a prune keeps the strongest of, from an entry's weight and total; without, the weight
   */
  constructor(
    readonly kept: number,
    readonly withTotals = false,
    readonly strength?: (weight: number, total: number) => number,
  ) {
    if (!Number.isInteger(kept) || kept < 1 || kept > MAX_KEPT) throw new RangeError(`neighbours kept must be an integer from 1 to ${MAX_KEPT}, got ${kept}`);
    this.capacity = 2 * kept;
    this.#lanes = withTotals ? 3 : 2;
    for (let size = Math.min(SMALLEST_BLOCK, this.capacity); ; size = Math.min(2 * size, this.capacity)) {
      const bits = Math.max(3, Math.ceil(Math.log2(2 * size)));
      this.#classSize.push(size);
      this.#classSlots.push(1 << bits);
      this.#classShift.push(32 - bits);
      this.#classWords.push(this.#lanes * size + (1 << bits) / 4);
      this.#free.push([]);
      if (size === this.capacity) break;
    }
    this.#strengths = new Float32Array(this.capacity + 1);
    this.#scratch = new Float32Array(this.capacity + 1);
  }

  /**
   * Adds `weight` (> 0) to the pair (row, id), and `total` to its total when the table keeps
   * totals: a decaying owner adds the grown weight and the plain one.
   */
  add(row: number, id: number, weight: number, total = weight): void {
    if (2 * row >= this.#rows.length) this.#growRows(row + 1);
    let sizeClass = (this.#rows[2 * row + 1]! & CLASS_MASK) - 1;
    if (sizeClass < 0) {
      this.#moveTo(row, 0);
      sizeClass = 0;
    }
    // One probe finds the pair or the free index slot a new entry takes.
    const start = this.#rows[2 * row]!;
    const size = this.#classSize[sizeClass]!;
    const bytes = this.#bytes;
    const ids = this.#ids;
    const indexAt = (start + this.#lanes * size) * 4;
    const mask = this.#classSlots[sizeClass]! - 1;
    const totals = this.withTotals;
    let slot = Math.imul(id, 0x9e3779b1) >>> this.#classShift[sizeClass]!;
    for (let entry = bytes[indexAt + slot]!; entry !== 0; entry = bytes[indexAt + slot]!) {
      if (ids[start + entry - 1] === id) {
        this.#weights[start + size + entry - 1] += weight;
        if (totals) this.#weights[start + 2 * size + entry - 1] += total;
        return;
      }
      slot = (slot + 1) & mask;
    }
    const fill = this.#rows[2 * row + 1]! >>> FILL_SHIFT;
    if (fill < size) {
      ids[start + fill] = id;
      this.#weights[start + size + fill] = weight;
      if (totals) this.#weights[start + 2 * size + fill] = total;
      bytes[indexAt + slot] = fill + 1;
      this.#setFill(row, fill + 1);
      return;
    }
    if (size === this.capacity) {
      this.#prune(row, id, weight, total);
      return;
    }
    this.#moveTo(row, sizeClass + 1);
    this.#ids[this.start(row) + fill] = id;
    this.#weights[this.weightStart(row) + fill] = weight;
    if (totals) this.#weights[this.totalStart(row) + fill] = total;
    this.#index(row, id, fill);
    this.#setFill(row, fill + 1);
  }

  /** The pair's weight; 0 when not kept. */
  weight(row: number, id: number): number {
    const position = this.#find(row, id);
    return position < 0 ? 0 : this.#weights[this.weightStart(row) + position]!;
  }

  /** Number of entries in the row. */
  size(row: number): number {
    return 2 * row < this.#rows.length ? this.#rows[2 * row + 1]! >>> FILL_SHIFT : 0;
  }

  /** The row's neighbour ids are `ids[start(row) + k]` for k < size(row), in the order they joined. */
  start(row: number): number {
    return 2 * row < this.#rows.length ? this.#rows[2 * row]! : 0;
  }

  /** Their weights are `weights[weightStart(row) + k]`. */
  weightStart(row: number): number {
    const sizeClass = this.#classOf(row);
    return sizeClass === 0 ? 0 : this.#rows[2 * row]! + this.#classSize[sizeClass - 1]!;
  }

  /**
   * Their totals are `weights[totalStart(row) + k]` (the same array). A table without totals
   * answers weightStart: its weights are their own totals.
   */
  totalStart(row: number): number {
    const sizeClass = this.#classOf(row);
    if (sizeClass === 0) return 0;
    const size = this.#classSize[sizeClass - 1]!;
    return this.#rows[2 * row]! + (this.withTotals ? 2 * size : size);
  }

  /** The pair's total (its weight in a table without totals); 0 when not kept. */
  total(row: number, id: number): number {
    const position = this.#find(row, id);
    return position < 0 ? 0 : this.#weights[this.totalStart(row) + position]!;
  }

  /** Entry arrays (see `start`): valid until the next add (a grow replaces them). */
  get ids(): Int32Array {
    return this.#ids;
  }

  get weights(): Float32Array {
    return this.#weights;
  }

  /** Multiplies every weight by `factor` (re-basing forward-decayed weights); totals stay. */
  scale(factor: number): void {
    for (let row = 0; row < this.#rowCount(); row++) {
      const at = this.weightStart(row);
      const size = this.size(row);
      for (let k = 0; k < size; k++) this.#weights[at + k] *= factor;
    }
  }

  /** Total entries held, for sizing reports. */
  entries(): number {
    let total = 0;
    for (let row = 0; row < this.#rowCount(); row++) total += this.size(row);
    return total;
  }

  /** Bytes of typed-array storage. */
  get bytes(): number {
    return this.#bytes.byteLength + this.#rows.byteLength;
  }

  /** Bytes of the pool handed out to blocks (used or on a free list): the pool's pages actually touched. */
  get usedBytes(): number {
    return 4 * this.#used;
  }

  /** Bytes of the pool in blocks on a free list (handed out once, free now: part of usedBytes). */
  get freeBytes(): number {
    return 4 * this.#freeWords;
  }

  /**
   * Moves every row's block down to the start of the pool, in pool order, and empties the free
   * lists: rows keep their entries, weights, order and index (an add compacts when free blocks
   * reach COMPACT_AT_FREE_SHARE of the pool; tests call it directly).
   */
  compact(): void {
    const rows = this.#rowCount();
    // Blocks in pool order: one numeric sort of start × span + row (exact below 2^53).
    const span = 2 ** Math.ceil(Math.log2(rows + 1));
    const keys = new Float64Array(rows);
    let blocks = 0;
    for (let row = 0; row < rows; row++) if (this.#classOf(row) !== 0) keys[blocks++] = this.#rows[2 * row]! * span + row;
    const order = keys.subarray(0, blocks).sort();
    let to = 0;
    for (let k = 0; k < blocks; k++) {
      const row = order[k]! % span;
      const from = this.#rows[2 * row]!;
      const words = this.#classWords[this.#classOf(row) - 1]!;
      if (from !== to) this.#ids.copyWithin(to, from, from + words);
      this.#rows[2 * row] = to;
      to += words;
    }
    this.#used = to;
    for (const list of this.#free) list.length = 0;
    this.#freeWords = 0;
  }

  /** The table's rows (copied), pool and free lists (the pool a view of the live array: copy it before the next add): what a snapshot stores. */
  export(): NeighborTableData {
    let rows = this.#rowCount();
    while (rows > 0 && this.#classOf(rows - 1) === 0) rows--;
    return {
      kept: this.kept,
      withTotals: this.withTotals,
      rows: bytesOf(this.#rows.subarray(0, 2 * rows)),
      pool: this.#bytes.subarray(0, this.#used * 4),
      free: this.#free.map((list) => bytesOf(Int32Array.from(list))),
    };
  }

  /** Replaces the contents with an export of a table that keeps as many neighbours, and totals as this one does (same layout, same future prunes). */
  import(data: NeighborTableData): void {
    const { rowClass, rowFill, rowStart } = data;
    const legacy = data.rows === undefined && rowClass !== undefined && rowFill !== undefined && rowStart !== undefined;
    const rows = data.rows !== undefined ? data.rows.length / 8 : (rowClass?.length ?? -1);
    const rowsFit = legacy ? rowFill!.length === rows && rowStart!.length === 4 * rows : Number.isInteger(rows) && rows >= 0;
    if (data.kept !== this.kept || data.withTotals !== this.withTotals || !rowsFit || data.free.length !== this.#free.length || data.pool.length % 4 !== 0) {
      throw new Error(`neighbour table data does not fit a table keeping ${this.kept}${this.withTotals ? ' with totals' : ''}`);
    }
    this.#rows = new Int32Array(0);
    this.#growRows(rows);
    if (!legacy) this.#rows.set(fromBytes(Int32Array, data.rows!));
    else {
      const starts = fromBytes(Int32Array, rowStart!);
      for (let row = 0; row < rows; row++) {
        this.#rows[2 * row] = starts[row]!;
        this.#rows[2 * row + 1] = rowClass![row]! | (rowFill![row]! << FILL_SHIFT);
      }
    }
    // A pool read fresh from a snapshot is taken over, not copied (~100 MB at 100k products).
    this.#usePool(fromBytes(Uint8Array, data.pool));
    this.#used = data.pool.length / 4;
    this.#free = data.free.map((list) => Array.from(fromBytes(Int32Array, list)));
    this.#freeWords = this.#free.reduce((words, list, sizeClass) => words + list.length * this.#classWords[sizeClass]!, 0);
  }

  /** Position of `id` in the row, or -1 (also for a row with no entries). */
  #find(row: number, id: number): number {
    if (this.size(row) === 0) return -1;
    const sizeClass = this.#classOf(row) - 1;
    const start = this.#rows[2 * row]!;
    const bytes = this.#bytes;
    const ids = this.#ids;
    const indexAt = (start + this.#lanes * this.#classSize[sizeClass]!) * 4;
    const mask = this.#classSlots[sizeClass]! - 1;
    for (let slot = Math.imul(id, 0x9e3779b1) >>> this.#classShift[sizeClass]!; ; slot = (slot + 1) & mask) {
      const entry = bytes[indexAt + slot]!;
      if (entry === 0) return -1;
      if (ids[start + entry - 1] === id) return entry - 1;
    }
  }

  #index(row: number, id: number, position: number): void {
    const sizeClass = this.#classOf(row) - 1;
    const bytes = this.#bytes;
    const indexAt = (this.#rows[2 * row]! + this.#lanes * this.#classSize[sizeClass]!) * 4;
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
      this.#freeWords -= words;
    } else {
      // The row's own block may move: its offset is read below.
      if (this.#freeWords > 0 && this.#freeWords >= COMPACT_AT_FREE_SHARE * this.#used) this.compact();
      this.#reserve(this.#used + words);
      start = this.#used;
      this.#used += words;
    }
    const oldClass = this.#classOf(row);
    const oldStart = this.#rows[2 * row]!;
    const oldWeights = this.weightStart(row);
    const oldTotals = this.totalStart(row);
    const fill = this.size(row);
    this.#bytes.fill(0, start * 4, (start + words) * 4);
    this.#rows[2 * row] = start;
    this.#rows[2 * row + 1] = sizeClass + 1 + (fill << FILL_SHIFT);
    const weightsAt = start + this.#classSize[sizeClass]!;
    const totalsAt = weightsAt + this.#classSize[sizeClass]!;
    for (let k = 0; k < fill; k++) {
      const id = this.#ids[oldStart + k]!;
      this.#ids[start + k] = id;
      this.#weights[weightsAt + k] = this.#weights[oldWeights + k]!;
      if (this.withTotals) this.#weights[totalsAt + k] = this.#weights[oldTotals + k]!;
      this.#index(row, id, k);
    }
    if (oldClass !== 0) {
      this.#free[oldClass - 1]!.push(oldStart);
      this.#freeWords += this.#classWords[oldClass - 1]!;
    }
  }

  /**
   * A full row meets a new neighbour: of its entries and the newcomer (last in row order), the K
   * strongest stay (by weight, or by the table's strength of weight and total), in row order
   * (ties: the earlier entry). The K-th strongest is found by selection on a scratch copy (linear,
   * no sort).
   */
  #prune(row: number, id: number, weight: number, total: number): void {
    const start = this.#rows[2 * row]!;
    const weightsAt = this.weightStart(row);
    const totalsAt = this.totalStart(row);
    const totals = this.withTotals;
    const ids = this.#ids;
    const weights = this.#weights;
    const capacity = this.capacity;
    const kept = this.kept;
    const strength = this.strength;
    const strengths = this.#strengths;
    if (strength === undefined) for (let k = 0; k < capacity; k++) strengths[k] = weights[weightsAt + k]!;
    else for (let k = 0; k < capacity; k++) strengths[k] = strength(weights[weightsAt + k]!, weights[totalsAt + k]!);
    const newStrength = Math.fround(strength === undefined ? weight : strength(Math.fround(weight), Math.fround(total)));
    strengths[capacity] = newStrength;
    const scratch = this.#scratch;
    scratch.set(strengths);
    const threshold = kthLargest(scratch, capacity + 1, kept);
    // Everything above the threshold stays; of the entries equal to it, the earliest fill the rest.
    let above = newStrength > threshold ? 1 : 0;
    for (let k = 0; k < capacity; k++) if (strengths[k]! > threshold) above++;
    let ties = kept - above;
    let r = 0;
    for (let k = 0; k < capacity; k++) {
      const s = strengths[k]!;
      if (s > threshold || (s === threshold && ties-- > 0)) {
        ids[start + r] = ids[start + k]!;
        weights[weightsAt + r] = weights[weightsAt + k]!;
        if (totals) weights[totalsAt + r] = weights[totalsAt + k]!;
        r++;
      }
    }
    if (r < kept) {
      ids[start + r] = id;
      weights[weightsAt + r] = weight;
      if (totals) weights[totalsAt + r] = total;
    }
    const indexAt = (start + this.#lanes * capacity) * 4;
    this.#bytes.fill(0, indexAt, indexAt + this.#classSlots[this.#classOf(row) - 1]!);
    for (let q = 0; q < kept; q++) this.#index(row, ids[start + q]!, q);
    this.#setFill(row, kept);
  }

  /**
   * Makes the pool hold at least `words` words: it grows by half, by an eighth once it is large
   * (a store's pool grows slowly by then, and half of 60 MB would sit allocated for millions of
   * events; each step copies the pool, a few ms per 10 MB).
   */
  #reserve(words: number): void {
    if (words * 4 <= this.#bytes.length) return;
    let size = Math.max(4096, this.#bytes.length / 4);
    while (size < words) size = Math.ceil(size * (size < LARGE_POOL_WORDS ? 1.5 : 1.125));
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

  /** Size class + 1 of the row's block; 0: none. */
  #classOf(row: number): number {
    return 2 * row < this.#rows.length ? this.#rows[2 * row + 1]! & CLASS_MASK : 0;
  }

  #setFill(row: number, fill: number): void {
    this.#rows[2 * row + 1] = (this.#rows[2 * row + 1]! & CLASS_MASK) | (fill << FILL_SHIFT);
  }

  #rowCount(): number {
    return this.#rows.length / 2;
  }

  #growRows(minRows: number): void {
    let rows = Math.max(64, this.#rowCount());
    while (rows < minRows) rows = Math.ceil(rows * 1.5);
    const next = new Int32Array(2 * rows);
    next.set(this.#rows);
    this.#rows = next;
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
