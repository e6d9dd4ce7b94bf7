// Scratch scores by dense id, reused by every answer of a shop: a Float64Array indexed by product
// plus the list of ids touched, so accumulating n contributions is O(n) and clearing costs only
// what was touched. No Map per request. One board per engine; answers are computed one at a time.

/**
 * Marks `id` touched in `bits` and writes it at `touched[count]` (the caller made room), returning
 * the count with it: written always, counted only when new, without a branch (in a row added at
 * once, whether an id is new is a coin toss the CPU would mispredict half the time).
 */
function markTouched(bits: Int32Array, touched: Int32Array, count: number, id: number): number {
  const word = bits[id >>> 5]!;
  const bit = 1 << (id & 31);
  touched[count] = id;
  bits[id >>> 5] = word | bit;
  return count + ((word & bit) === 0 ? 1 : 0);
}

export class ScoreBoard {
  #scores = new Float64Array(1024);
  /**
   * Per id, one bit: touched since the last clear. A bit rather than a byte: a long history's rows
   * test it thousands of times an answer at random ids, and 100k products' bits (12.5 KB) stay in
   * the CPU's nearest cache where their bytes (100 KB) do not.
   */
  #touchedBits = new Int32Array(1024 / 32);
  /** Per id: the flags added (bits ≥ 2); written by add() with flags only. */
  #flags = new Uint8Array(1024);
  /** Whether any flags were added since the last clear (else clear() leaves #flags alone). */
  #flagged = false;
  #touched = new Int32Array(256);
  #count = 0;

  /** Adds `value` to the id's score; `flags` (bits ≥ 2) are or-ed into its flags. */
  add(id: number, value: number, flags = 0): void {
    if (id >= this.#scores.length) this.#grow(id + 1);
    const word = this.#touchedBits[id >>> 5]!;
    const bit = 1 << (id & 31);
    if ((word & bit) === 0) {
      if (this.#count === this.#touched.length) {
        const touched = new Int32Array(this.#count * 2);
        touched.set(this.#touched);
        this.#touched = touched;
      }
      this.#touched[this.#count++] = id;
      this.#touchedBits[id >>> 5] = word | bit;
    }
    if (flags !== 0) {
      this.#flags[id] |= flags;
      this.#flagged = true;
    }
    this.#scores[id] += value;
  }

  /**
   * Adds values[valueStart + k] × factor to the score of ids[idStart + k] for k < size, with
   * `flags` or-ed in: the same sums as add() one by one, without a branch on whether each id is
   * new (rows of a cart's products overlap at random, which the CPU would mispredict).
   */
  addRow(ids: Int32Array, idStart: number, values: Float32Array | Float64Array, valueStart: number, size: number, factor: number, flags = 0): void {
    let maxId = -1;
    for (let k = 0; k < size; k++) maxId = Math.max(maxId, ids[idStart + k]!);
    if (maxId >= this.#scores.length) this.#grow(maxId + 1);
    this.#reserveTouched(size);
    const scores = this.#scores;
    const bits = this.#touchedBits;
    const touched = this.#touched;
    let count = this.#count;
    for (let k = 0; k < size; k++) {
      const j = ids[idStart + k]!;
      count = markTouched(bits, touched, count, j);
      scores[j] += values[valueStart + k]! * factor;
    }
    this.#count = count;
    if (flags === 0) return;
    for (let k = 0; k < size; k++) this.#flags[ids[idStart + k]!] |= flags;
    this.#flagged = true;
  }

  /**
   * Adds weight × Jaccard(item, j) for the `size` neighbours j = ids[start + k] of a row, the pair
   * weights[weightStart + k] × scale shared with the item (`own` groups): the same sums as add()
   * one by one, with the board's arrays read once per row instead of once per neighbour (a long
   * history spreads thousands of them per answer).
   */
  addJaccardRow(ids: Int32Array, start: number, size: number, weights: Float32Array, weightStart: number, scale: number, weight: number, groups: Float32Array | Float64Array, own: number): void {
    if (groups.length > this.#scores.length) this.#grow(groups.length); // every neighbour has a group count
    this.#reserveTouched(size);
    const scores = this.#scores;
    const bits = this.#touchedBits;
    const touched = this.#touched;
    let count = this.#count;
    for (let k = 0; k < size; k++) {
      const j = ids[start + k]!;
      const together = weights[weightStart + k]! * scale;
      count = markTouched(bits, touched, count, j);
      scores[j] += (weight * together) / (own + groups[j]! - together);
    }
    this.#count = count;
  }

  /** Ids touched since the last clear: `touchedAt(0 … touchedCount − 1)`. */
  get touchedCount(): number {
    return this.#count;
  }

  touchedAt(i: number): number {
    return this.#touched[i]!;
  }

  score(id: number): number {
    return id < this.#scores.length ? this.#scores[id]! : 0;
  }

  /** 0 when the id is untouched, else 1 | the flags added. */
  flags(id: number): number {
    if (id >= this.#scores.length || (this.#touchedBits[id >>> 5]! & (1 << (id & 31))) === 0) return 0;
    return 1 | this.#flags[id]!;
  }

  /** Multiplies every score on the board by `factor`. */
  scale(factor: number): void {
    for (let i = 0; i < this.#count; i++) this.#scores[this.#touched[i]!] *= factor;
  }

  clear(): void {
    // Every bit set is a touched id's: zeroing a touched id's whole word clears no one else's.
    for (let i = 0; i < this.#count; i++) {
      const id = this.#touched[i]!;
      this.#scores[id] = 0;
      this.#touchedBits[id >>> 5] = 0;
    }
    if (this.#flagged) for (let i = 0; i < this.#count; i++) this.#flags[this.#touched[i]!] = 0;
    this.#flagged = false;
    this.#count = 0;
  }

  /** Makes room for `more` touched ids past the current count. */
  #reserveTouched(more: number): void {
    if (this.#count + more <= this.#touched.length) return;
    const touched = new Int32Array(Math.max(2 * this.#touched.length, this.#count + more));
    touched.set(this.#touched);
    this.#touched = touched;
  }

  #grow(min: number): void {
    let size = this.#scores.length;
    while (size < min) size *= 2;
    const scores = new Float64Array(size);
    scores.set(this.#scores);
    const bits = new Int32Array(size / 32);
    bits.set(this.#touchedBits);
    const flags = new Uint8Array(size);
    flags.set(this.#flags);
    this.#scores = scores;
    this.#touchedBits = bits;
    this.#flags = flags;
  }
}
