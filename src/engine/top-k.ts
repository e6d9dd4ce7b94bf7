// The k best (id, score) pairs of a stream of candidates: a min-heap of capacity k (the worst kept
// candidate at the root), so offering n candidates costs O(n log k) and sorting the result
// O(k log k), with no allocation once the arrays have grown. Higher scores rank first; equal
// scores by `tieBreak` (the engine's product id order), so answers never depend on arrival order.
import type { TieBreak } from './top-list.js';

export class TopK {
  #ids = new Int32Array(32);
  #scores = new Float64Array(32);
  #size = 0;
  #capacity = 0;

  constructor(readonly tieBreak: TieBreak) {}

  /** Empties the selection and sets how many candidates it keeps. */
  reset(capacity: number): void {
    if (capacity > this.#ids.length) {
      let size = this.#ids.length;
      while (size < capacity) size *= 2;
      this.#ids = new Int32Array(size);
      this.#scores = new Float64Array(size);
    }
    this.#capacity = capacity;
    this.#size = 0;
  }

  /** Offers a candidate (each id at most once between resets). */
  offer(id: number, score: number): void {
    if (this.#size < this.#capacity) {
      this.#siftUp(this.#size++, id, score);
    } else if (this.#capacity > 0 && this.#worse(this.#ids[0]!, this.#scores[0]!, id, score)) {
      this.#siftDown(0, id, score, this.#size);
    }
  }

  /** Whether offer(id, score) would keep the candidate now: callers skip costlier checks for those it would not. */
  admits(id: number, score: number): boolean {
    return this.#size < this.#capacity || (this.#capacity > 0 && this.#worse(this.#ids[0]!, this.#scores[0]!, id, score));
  }

  /**
   * A candidate scoring below this is never admitted (admits() decides at it exactly): the worst
   * kept score once full, −Infinity before, Infinity when it keeps none.
   */
  get floor(): number {
    if (this.#capacity === 0) return Infinity;
    return this.#size < this.#capacity ? -Infinity : this.#scores[0]!;
  }

  /** Sorts the kept candidates best first and returns how many there are; read them with idAt/scoreAt. */
  sort(): number {
    // Heapsort: moving the worst to the end, one by one, leaves the array best first.
    const count = this.#size;
    for (let end = count - 1; end > 0; end--) {
      const id = this.#ids[end]!;
      const score = this.#scores[end]!;
      this.#ids[end] = this.#ids[0]!;
      this.#scores[end] = this.#scores[0]!;
      this.#siftDown(0, id, score, end);
    }
    this.#size = 0;
    return count;
  }

  idAt(rank: number): number {
    return this.#ids[rank]!;
  }

  scoreAt(rank: number): number {
    return this.#scores[rank]!;
  }

  /** Whether (a, sa) ranks below (b, sb). */
  #worse(a: number, sa: number, b: number, sb: number): boolean {
    return sa < sb || (sa === sb && this.tieBreak(a, b) > 0);
  }

  #siftUp(position: number, id: number, score: number): void {
    while (position > 0) {
      const parent = (position - 1) >> 1;
      if (!this.#worse(id, score, this.#ids[parent]!, this.#scores[parent]!)) break;
      this.#ids[position] = this.#ids[parent]!;
      this.#scores[position] = this.#scores[parent]!;
      position = parent;
    }
    this.#ids[position] = id;
    this.#scores[position] = score;
  }

  /** Places (id, score) at `position` of a heap of `size` and sinks it to its place. */
  #siftDown(position: number, id: number, score: number, size: number): void {
    for (;;) {
      const left = 2 * position + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && this.#worse(this.#ids[right]!, this.#scores[right]!, this.#ids[left]!, this.#scores[left]!) ? right : left;
      if (!this.#worse(this.#ids[child]!, this.#scores[child]!, id, score)) break;
      this.#ids[position] = this.#ids[child]!;
      this.#scores[position] = this.#scores[child]!;
      position = child;
    }
    this.#ids[position] = id;
    this.#scores[position] = score;
  }
}
