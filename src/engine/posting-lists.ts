// Per feature, the products that have it: one growable Int32Array per feature instead of a Set
// (a Set per feature costs ~30 µs per product at 100k products, and most of the catalog load).
// Order within a list is not meaningful: a removal moves the list's last id into the gap.
export class PostingLists {
  #lists: Int32Array[] = [];
  #sizes = new Int32Array(64);

  /** Number of lists (feature ids 0 … count − 1). */
  get count(): number {
    return this.#lists.length;
  }

  /** Adds an empty list; returns its feature id. */
  addList(): number {
    const feature = this.#lists.length;
    this.#lists.push(new Int32Array(4));
    if (feature >= this.#sizes.length) {
      const sizes = new Int32Array(this.#sizes.length * 2);
      sizes.set(this.#sizes);
      this.#sizes = sizes;
    }
    return feature;
  }

  size(feature: number): number {
    return this.#sizes[feature]!;
  }

  /** The list's ids are `ids(feature)[0 … size(feature) − 1]`. */
  ids(feature: number): Int32Array {
    return this.#lists[feature]!;
  }

  /** Adds `id` (the caller never adds one twice). */
  add(feature: number, id: number): void {
    let list = this.#lists[feature]!;
    const size = this.#sizes[feature]!;
    if (size === list.length) {
      const grown = new Int32Array(list.length * 2);
      grown.set(list);
      this.#lists[feature] = list = grown;
    }
    list[size] = id;
    this.#sizes[feature] = size + 1;
  }

  /** Removes `id` if present (a scan: removals are catalog edits, rare next to reads). */
  remove(feature: number, id: number): void {
    const list = this.#lists[feature]!;
    const last = this.#sizes[feature]! - 1;
    for (let i = 0; i <= last; i++) {
      if (list[i] !== id) continue;
      list[i] = list[last]!;
      this.#sizes[feature] = last;
      return;
    }
  }
}
