// Catalog use cases: persist durably, then apply to the shop's engine, so reads after the answer see it.
import type { Product } from '../engine/product.js';
import type { CatalogStore } from '../store/catalog-store.js';
import type { ShopEngines } from './shop-engines.js';

export class CatalogUpdates {
  constructor(
    readonly store: CatalogStore,
    readonly engines: ShopEngines,
  ) {}

  async upsert(shopId: string, products: readonly Product[]): Promise<void> {
    await this.store.put(shopId, products);
    const engine = this.engines.get(shopId);
    for (const product of products) engine.upsertProduct(product);
  }

  /** Resolves false when the shop has no such product. */
  async remove(shopId: string, productId: string): Promise<boolean> {
    const removed = await this.store.remove(shopId, productId);
    if (removed) this.engines.get(shopId).removeProduct(productId);
    return removed;
  }

  get(shopId: string, productId: string): Product | undefined {
    return this.engines.get(shopId).catalog.get(productId);
  }
}
