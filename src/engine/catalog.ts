// The shop's products behind dense integer ids, and collection membership. Events may name a
// product before the catalog has it: it gets a dense id at once and counts once it appears.
import type { Product } from './product.js';

export interface CollectionChange {
  dense: number;
  added: readonly string[];
  removed: readonly string[];
}

export class Catalog {
  readonly #denseById = new Map<string, number>();
  readonly #ids: string[] = [];
  readonly #products: (Product | undefined)[] = [];
  readonly #members = new Map<string, Set<number>>();
  #productCount = 0;

  /** Dense id of a product id, created if new. */
  intern(id: string): number {
    let dense = this.#denseById.get(id);
    if (dense === undefined) {
      dense = this.#ids.push(id) - 1;
      this.#denseById.set(id, dense);
      this.#products.push(undefined);
    }
    return dense;
  }

  denseOf(id: string): number | undefined {
    return this.#denseById.get(id);
  }

  idOf(dense: number): string {
    return this.#ids[dense]!;
  }

  product(dense: number): Product | undefined {
    return this.#products[dense];
  }

  get(id: string): Product | undefined {
    const dense = this.#denseById.get(id);
    return dense === undefined ? undefined : this.#products[dense];
  }

  /** Number of products in the catalog (not counting ids known only from events). */
  get productCount(): number {
    return this.#productCount;
  }

  /** Number of dense ids handed out. */
  get size(): number {
    return this.#ids.length;
  }

  /** Dense ids of a collection's members, in the order they joined; undefined for an unknown collection. */
  members(collectionId: string): ReadonlySet<number> | undefined {
    return this.#members.get(collectionId);
  }

  collectionIds(): IterableIterator<string> {
    return this.#members.keys();
  }

  upsert(product: Product): CollectionChange {
    const dense = this.intern(product.id);
    const before = this.#products[dense];
    if (before === undefined) this.#productCount++;
    this.#products[dense] = product;
    const old = before?.collections ?? [];
    const added = product.collections.filter((c) => !old.includes(c));
    const removed = old.filter((c) => !product.collections.includes(c));
    for (const c of added) {
      let set = this.#members.get(c);
      if (set === undefined) this.#members.set(c, (set = new Set()));
      set.add(dense);
    }
    for (const c of removed) this.#leave(c, dense);
    return { dense, added, removed };
  }

  /** Removes a product (its dense id and counters stay, so it counts again if it comes back). */
  remove(id: string): CollectionChange | undefined {
    const dense = this.#denseById.get(id);
    const product = dense === undefined ? undefined : this.#products[dense];
    if (dense === undefined || product === undefined) return undefined;
    this.#products[dense] = undefined;
    this.#productCount--;
    for (const c of product.collections) this.#leave(c, dense);
    return { dense, added: [], removed: product.collections };
  }

  #leave(collectionId: string, dense: number): void {
    const set = this.#members.get(collectionId);
    if (set === undefined) return;
    set.delete(dense);
    if (set.size === 0) this.#members.delete(collectionId);
  }
}
