// The shop's products behind dense integer ids, and collection membership. Only products get dense
// ids (kept when a product is removed, so its counts return with it): events naming an id the
// catalog never had wait in the engine's bounded PendingEvents instead.
import type { Product } from './product.js';
import { grownTo } from './typed-arrays.js';

export interface CollectionChange {
  dense: number;
  added: readonly string[];
  removed: readonly string[];
}

/** Product id order: numeric-aware ("2" before "10"), then plain code-unit order. */
const collator = new Intl.Collator('en', { numeric: true });

export function compareProductIds(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The id as a number when it is a plain integer (no sign, no leading zero, exact in a double), else NaN. */
function integerKey(id: string): number {
  return /^(0|[1-9]\d{0,14})$/.test(id) ? Number(id) : NaN;
}

export class Catalog {
  readonly #denseById = new Map<string, number>();
  readonly #ids: string[] = [];
  readonly #products: (Product | undefined)[] = [];
  /** 1 where the dense id is a catalog product marked available: the hot check of every answer. */
  #available = new Uint8Array(1024);
  /** Per dense id: 1 when the product is repurchasable (read for every purchase a personalized answer blocks, without the product object). */
  #repurchasable = new Uint8Array(1024);
  readonly #members = new Map<string, Set<number>>();
  #productCount = 0;
  /** Per dense id: the id as a number when it is a plain integer (most platforms' ids): ties compare without the collator. */
  #integerKeys = new Float64Array(1024);
  /** Products in id order, built on demand and dropped when a product comes or goes. */
  #ordered: number[] | undefined;
  readonly #orderedMembers = new Map<string, number[]>();

  /** Every id handed a dense id, by dense id (products, present and removed). */
  internedIds(): readonly string[] {
    return this.#ids;
  }

  /** Hands out dense ids in this order (restoring a snapshot into an empty catalog). */
  restoreIds(ids: readonly string[]): void {
    if (this.#ids.length > 0) throw new Error('restoreIds needs an empty catalog');
    for (const id of ids) this.intern(id);
  }

  /** Dense id of a product id, created if new (for catalog products only: every dense id costs a row in each model). */
  intern(id: string): number {
    let dense = this.#denseById.get(id);
    if (dense === undefined) {
      dense = this.#ids.push(id) - 1;
      this.#denseById.set(id, dense);
      this.#integerKeys = grownTo(this.#integerKeys, dense + 1);
      this.#integerKeys[dense] = integerKey(id);
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

  /** Whether the dense id is a catalog product that can be recommended. */
  isAvailable(dense: number): boolean {
    return dense < this.#available.length && this.#available[dense] === 1;
  }

  /** Whether the dense id is a catalog product marked repurchasable. */
  isRepurchasable(dense: number): boolean {
    return dense < this.#repurchasable.length && this.#repurchasable[dense] === 1;
  }

  get(id: string): Product | undefined {
    const dense = this.#denseById.get(id);
    return dense === undefined ? undefined : this.#products[dense];
  }

  /** Number of products in the catalog (not counting removed ones). */
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

  /**
   * Orders two dense ids by product id: the tie order of every ranking, so that answers do not
   * depend on the order products and events arrived in (a replay gives the same answers).
   */
  compareIds(a: number, b: number): number {
    if (a === b) return 0;
    // Plain integers in numeric collation order are in numeric order: no string compare needed.
    const difference = this.#integerKeys[a]! - this.#integerKeys[b]!;
    if (difference === difference) return difference;
    return compareProductIds(this.#ids[a]!, this.#ids[b]!);
  }

  /** Dense ids of all catalog products in product-id order. Valid until the next upsert/remove. */
  ordered(): readonly number[] {
    if (this.#ordered === undefined) {
      const ids: number[] = [];
      for (let dense = 0; dense < this.#products.length; dense++) if (this.#products[dense] !== undefined) ids.push(dense);
      this.#ordered = ids.sort((a, b) => this.compareIds(a, b));
    }
    return this.#ordered;
  }

  /** A collection's members in product-id order; empty for an unknown collection. */
  orderedMembers(collectionId: string): readonly number[] {
    let ids = this.#orderedMembers.get(collectionId);
    if (ids === undefined) {
      ids = [...(this.#members.get(collectionId) ?? [])].sort((a, b) => this.compareIds(a, b));
      this.#orderedMembers.set(collectionId, ids);
    }
    return ids;
  }

  collectionIds(): IterableIterator<string> {
    return this.#members.keys();
  }

  upsert(product: Product): CollectionChange {
    const dense = this.intern(product.id);
    const before = this.#products[dense];
    if (before === undefined) {
      this.#productCount++;
      this.#ordered = undefined;
    }
    this.#products[dense] = product;
    this.#setAvailable(dense, product.available);
    this.#repurchasable = grownTo(this.#repurchasable, dense + 1);
    this.#repurchasable[dense] = product.repurchasable === true ? 1 : 0;
    const old = before?.collections ?? [];
    const added = product.collections.filter((c) => !old.includes(c));
    const removed = old.filter((c) => !product.collections.includes(c));
    for (const c of added) {
      this.#orderedMembers.delete(c);
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
    this.#setAvailable(dense, false);
    if (dense < this.#repurchasable.length) this.#repurchasable[dense] = 0;
    this.#productCount--;
    this.#ordered = undefined;
    for (const c of product.collections) this.#leave(c, dense);
    return { dense, added: [], removed: product.collections };
  }

  #setAvailable(dense: number, available: boolean): void {
    this.#available = grownTo(this.#available, dense + 1);
    this.#available[dense] = available ? 1 : 0;
  }

  #leave(collectionId: string, dense: number): void {
    const set = this.#members.get(collectionId);
    if (set === undefined) return;
    this.#orderedMembers.delete(collectionId);
    set.delete(dense);
    if (set.size === 0) this.#members.delete(collectionId);
  }
}
