// A bounded list of the highest-scoring ids, kept sorted as scores only grow (Gorse's bounded
// top-K idea, incremental). touch() is O(capacity) worst case, usually a step or two.

export interface ScoreSource {
  raw(id: number): number;
}

/** Orders ids of equal score (negative: `a` first). */
export type TieBreak = (a: number, b: number) => number;

export class TopList {
  readonly #ids: number[] = [];
  readonly #members = new Set<number>();
  #evicted = false;

  constructor(
    readonly scores: ScoreSource,
    readonly capacity = 256,
    readonly tieBreak: TieBreak = (a, b) => a - b,
  ) {}

  /** Whether `a` ranks above `b`. The list always holds the best ids by this order. */
  #above(a: number, b: number): boolean {
    const sa = this.scores.raw(a);
    const sb = this.scores.raw(b);
    return sa > sb || (sa === sb && this.tieBreak(a, b) < 0);
  }

  /** Ids in descending score order. Valid until the next touch/remove. */
  get ids(): readonly number[] {
    return this.#ids;
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
    } else if (ids.length < this.capacity) {
      index = ids.push(id) - 1;
      this.#members.add(id);
    } else {
      const last = ids[ids.length - 1]!;
      this.#evicted = true; // either `last` or `id` now has a score but is not listed
      if (!this.#above(id, last)) return;
      this.#members.delete(last);
      index = ids.length - 1;
      ids[index] = id;
      this.#members.add(id);
    }
    while (index > 0 && this.#above(id, ids[index - 1]!)) {
      ids[index] = ids[index - 1]!;
      index--;
    }
    ids[index] = id;
  }

  /** Refills the list from every id with a positive score (restoring a snapshot). */
  rebuild(ids: Iterable<number>): void {
    const sorted = [...ids].sort((a, b) => (this.#above(a, b) ? -1 : this.#above(b, a) ? 1 : 0));
    this.#ids.length = 0;
    this.#members.clear();
    for (const id of sorted.slice(0, this.capacity)) {
      this.#ids.push(id);
      this.#members.add(id);
    }
    this.#evicted = sorted.length > this.capacity;
  }

  remove(id: number): void {
    if (!this.#members.delete(id)) return;
    this.#ids.splice(this.#ids.indexOf(id), 1);
    this.#evicted = true; // a lower id that was pushed out earlier may now belong in the list
  }
}
