// Durable catalog: each shop's products under [shopId, productId].
import type { Product } from '../engine/product.js';
import { shopIdsOf, shopRange, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';

export class CatalogStore {
  constructor(readonly dbs: Databases) {}

  put(shopId: string, products: readonly Product[]): Promise<void> {
    return commitDurably(this.dbs, () => {
      for (const product of products) this.dbs.products.put([shopId, product.id], product);
    });
  }

  /** Resolves false when the product did not exist. */
  async remove(shopId: string, productId: string): Promise<boolean> {
    if (this.dbs.products.get([shopId, productId]) === undefined) return false;
    await commitDurably(this.dbs, () => {
      this.dbs.products.remove([shopId, productId]);
    });
    return true;
  }

  *readShop(shopId: string): Iterable<Product> {
    for (const { value } of this.dbs.products.getRange(shopRange(shopId))) yield value;
  }

  shopIds(): Iterable<string> {
    return shopIdsOf(this.dbs.products);
  }
}
