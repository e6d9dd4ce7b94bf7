// Catalog use cases: persist durably, then apply to the shop's engine, so reads after the answer see it.
import { catalogPage, type CatalogPage } from '../engine/catalog-page.js';
import type { Product } from '../engine/product.js';
import { AppError } from '../errors.js';
import type { CatalogStore } from '../store/catalog-store.js';
import type { ShopEngines } from './shop-engines.js';

/** Called after a shop's catalog changed (committed and applied), e.g. to refresh live lists. */
export type CatalogListener = (shopId: string) => void;

export class CatalogUpdates {
  readonly #listeners: CatalogListener[] = [];

  constructor(
    readonly store: CatalogStore,
    readonly engines: ShopEngines,
  ) {}

  onChanged(listener: CatalogListener): void {
    this.#listeners.push(listener);
  }

  /** Rejects with AppError('unavailable') when the storage refuses the commit (nothing changed). */
  async upsert(shopId: string, products: readonly Product[]): Promise<void> {
    await stored(this.store.put(shopId, products));
    // Checked again after each wait, in the turn that changes the models: a catch-up waiting too
    // may take the shop as a hold ends (see LogApplier).
    for (let held = this.engines.changesWait(shopId); held !== undefined; held = this.engines.changesWait(shopId)) await held;
    const engine = this.engines.get(shopId);
    for (const product of products) engine.upsertProduct(product);
    for (const listener of this.#listeners) listener(shopId);
  }

  /** Resolves false when the shop has no such product. */
  async remove(shopId: string, productId: string): Promise<boolean> {
    const removed = await stored(this.store.remove(shopId, productId));
    if (removed) {
      for (let held = this.engines.changesWait(shopId); held !== undefined; held = this.engines.changesWait(shopId)) await held;
      this.engines.get(shopId).removeProduct(productId);
      for (const listener of this.#listeners) listener(shopId);
    }
    return removed;
  }

  get(shopId: string, productId: string): Product | undefined {
    return this.engines.get(shopId).catalog.get(productId);
  }

  /** Up to `limit` products after the id `after`, in product-id order (see engine/catalog-page.ts). */
  page(shopId: string, after: string | undefined, limit: number): CatalogPage {
    return catalogPage(this.engines.get(shopId).catalog, after, limit);
  }
}

/** A commit the storage refused (a full disk) is a 503: the catalog stays as it was. */
async function stored<T>(commit: Promise<T>): Promise<T> {
  try {
    return await commit;
  } catch (cause) {
    throw new AppError('unavailable', `the catalog could not be stored: ${(cause as Error).message}`);
  }
}
