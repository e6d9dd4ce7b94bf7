// A bounded list of the highest-scoring ids, kept sorted as scores only grow (Gorse's bounded
// top-K idea, incremental). touch() finds the id's new place by binary search (forward-decayed
// scores make a touched id jump far up), then shifts the ids between with one copyWithin:
// O(log capacity) score comparisons and a memmove of at most capacity ids. Membership is a scan
// of the ids (native indexOf over ≤ capacity ints), done only for an id that ranks above the last.

export interface ScoreSource {
  raw(id: number): number;
}

/** Orders ids of equal score (negative: `a` first). */
export type TieBreak = (a: number, b: number) => number;

export class TopList {
  readonly #ids: Int32Array;
  #length = 0;
  /** #ids[0 … #length), kept while the length stays (no allocation per read). */
  #view: Int32Array;
  #evicted = false;

  constructor(
    readonly scores: ScoreSource,
    readonly capacity = 256,
    readonly tieBreak: TieBreak = (a, b) => a - b,
  ) {
    this.#ids = new Int32Array(capacity);
    this.#view = this.#ids.subarray(0, 0);
  }

  /** Whether `a` ranks above `b`. The list always holds the best ids by this order. */
  #above(a: number, b: number): boolean {
    const sa = this.scores.raw(a);
    const sb = this.scores.raw(b);
    return sa > sb || (sa === sb && this.tieBreak(a, b) < 0);
  }

  /** Ids in descending score order. Valid until the next touch/remove. */
  get ids(): Int32Array {
    if (this.#view.length !== this.#length) this.#view = this.#ids.subarray(0, this.#length);
    return this.#view;
  }

  /** False once an id has been pushed out or turned away: then ids beyond the list may have positive scores. */
  get complete(): boolean {
    return !this.#evicted;
  }

  /** Call after the score of `id` grew. */
  touch(id: number): void {
    const ids = this.#ids;
    let index: number;
    if (this.#length === this.capacity) {
      const last = ids[this.#length - 1]!;
      // Every listed id but the last ranks above the last, and a grown score only moves up, so an
      // id that does not is not listed: most touches in a large store end here, without a search.
      if (id !== last && !this.#above(id, last)) {
        this.#evicted = true; // `id` has a score but is not listed
        return;
      }
      index = this.ids.indexOf(id);
      if (index < 0) {
        this.#evicted = true; // `last` is pushed out
        index = this.#length - 1;
      }
    } else {
      index = this.ids.indexOf(id);
      if (index < 0) index = this.#length++;
    }
    // The first position in [0, index) whose id ranks below `id` (all before it rank above).
    let lo = 0;
    let hi = index;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#above(id, ids[mid]!)) hi = mid;
      else lo = mid + 1;
    }
    ids.copyWithin(lo + 1, lo, index);
    ids[lo] = id;
  }

  /** Refills the list from every id with a positive score (restoring a snapshot). */
  rebuild(ids: Iterable<number>): void {
    const sorted = [...ids].sort((a, b) => (this.#above(a, b) ? -1 : this.#above(b, a) ? 1 : 0));
    const listed = sorted.slice(0, this.capacity);
    this.#ids.set(listed);
    this.#length = listed.length;
    this.#evicted = sorted.length > this.capacity;
  }

  remove(id: number): void {
    const index = this.ids.indexOf(id);
    if (index < 0) return;
    this.#ids.copyWithin(index, index + 1, this.#length);
    this.#length--;
    this.#evicted = true; // a lower id that was pushed out earlier may now belong in the list
  }
}
