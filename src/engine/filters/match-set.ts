// A set of dense product ids as a bitmap (one bit per dense id, 32 to a word): what a compiled filter
// selects. AND / OR / AND NOT of two sets cost a pass over ⌈size / 32⌉ words, whatever the catalog holds.

/** A Selection (selection.ts) of its own: it tests a product and is its set. */
export class MatchSet {
  readonly words: Uint32Array;

  /** An empty set able to hold dense ids 0 … size − 1. */
  constructor(readonly size: number) {
    this.words = new Uint32Array((size + 31) >>> 5);
  }

  has(id: number): boolean {
    return id < this.size && (this.words[id >>> 5]! & (1 << (id & 31))) !== 0;
  }

  /** Itself: a set is its own selection. */
  set(): MatchSet {
    return this;
  }

  /** A set holding the same ids, to modify. */
  copy(): MatchSet {
    const copy = new MatchSet(this.size);
    copy.words.set(this.words);
    return copy;
  }

  add(id: number): void {
    if (id < this.size) this.words[id >>> 5]! |= 1 << (id & 31);
  }

  /** Keeps only the ids `other` holds too. */
  and(other: MatchSet): this {
    const words = this.words;
    for (let i = 0; i < words.length; i++) words[i]! &= other.words[i]!;
    return this;
  }

  or(other: MatchSet): this {
    const words = this.words;
    for (let i = 0; i < words.length; i++) words[i]! |= other.words[i]!;
    return this;
  }

  /** Keeps only the ids `other` does not hold. */
  andNot(other: MatchSet): this {
    const words = this.words;
    for (let i = 0; i < words.length; i++) words[i]! &= ~other.words[i]!;
    return this;
  }

  /** Number of ids held (popcount). */
  count(): number {
    let count = 0;
    for (let i = 0; i < this.words.length; i++) {
      let w = this.words[i]!;
      w -= (w >>> 1) & 0x55555555;
      w = (w & 0x33333333) + ((w >>> 2) & 0x33333333);
      count += (((w + (w >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return count;
  }

  /** Calls `each` with every id held, in increasing order. */
  forEach(each: (id: number) => void): void {
    for (let i = 0; i < this.words.length; i++) {
      let w = this.words[i]!;
      while (w !== 0) {
        const bit = 31 - Math.clz32(w & -w);
        each((i << 5) + bit);
        w &= w - 1;
      }
    }
  }
}
