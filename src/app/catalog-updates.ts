// Catalog use cases: append the change to the shop's log durably, then apply the log through it, so
// reads after the answer see it (and every other process applies it in the same order).
import { catalogPage, type CatalogPage } from '../engine/catalog-page.js';
import type { Product } from '../engine/product.js';
import { notStored } from '../errors.js';
import type { CatalogStore, ProductsPut } from '../store/catalog-store.js';
import type { LogApplier } from '../ingest/log-applier.js';
import type { ShopEngines } from '../engine/shop-engines.js';

export class CatalogUpdates {
  constructor(
    readonly store: CatalogStore,
    readonly engines: ShopEngines,
    readonly applier: LogApplier,
  ) {}

  /**
   * Resolves with the change's log position and the products it stored (those older than the stored
   * ones by sourceUpdatedAt are not); rejects with AppError('unavailable') when the storage refuses
   * the commit (nothing changed). `keepCollections`: each product keeps its stored collections.
   */
  async upsert(shopId: string, products: readonly Product[], now: number, keepCollections = false): Promise<ProductsPut> {
    const put = await stored(this.store.put(shopId, products, now, keepCollections));
    await this.applier.applyThrough(shopId, put.position);
    return put;
  }

  /** Resolves with the change's log position, or undefined when the shop has no such product. */
  async remove(shopId: string, productId: string, now: number): Promise<number | undefined> {
    const position = await stored(this.store.remove(shopId, productId, now));
    if (position !== undefined) await this.applier.applyThrough(shopId, position);
    return position;
  }

  get(shopId: string, productId: string): Product | undefined {
    return this.engines.face(shopId).product(productId);
  }

  /** Up to `limit` products after the id `after`, in product-id order (see engine/catalog-page.ts). */
  page(shopId: string, after: string | undefined, limit: number): CatalogPage {
    return catalogPage(this.engines.face(shopId).catalogReader, after, limit);
  }
}

/** A commit the storage refused (a full disk) is a 503: the catalog stays as it was. */
async function stored<T>(commit: Promise<T>): Promise<T> {
  try {
    return await commit;
  } catch (cause) {
    throw notStored('the catalog', cause);
  }
}
