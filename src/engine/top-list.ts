// A bounded list of the highest-scoring ids, kept sorted as scores only grow (Gorse's bounded
// top-K idea, incremental). touch() finds the id's new place by binary search (forward-decayed
// scores make a touched id jump far up), then shifts the ids between with one copyWithin:
// O(log capacity) score comparisons and a memmove of at most capacity ids.

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
  readonly #members = new Set<number>();
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
    if (this.#members.has(id)) {
      index = ids.indexOf(id);
    } else if (this.#length < this.capacity) {
      index = this.#length++;
      this.#members.add(id);
    } else {
      index = this.#length - 1;
      const last = ids[index]!;
      this.#evicted = true; // either `last` or `id` now has a score but is not listed
      if (!this.#above(id, last)) return;
      this.#members.delete(last);
      this.#members.add(id);
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
    this.#members.clear();
    for (const id of listed) this.#members.add(id);
    this.#evicted = sorted.length > this.capacity;
  }

  remove(id: number): void {
    if (!this.#members.delete(id)) return;
    const index = this.#ids.indexOf(id);
    this.#ids.copyWithin(index, index + 1, this.#length);
    this.#length--;
    this.#evicted = true; // a lower id that was pushed out earlier may now belong in the list
  }
}
