// Durable catalog: each change is an entry of the shop's log, and the current products are kept
// under [shopId, productId] beside it (written in the same transaction).
import type { Product } from '../engine/product.js';
import type { Rule } from '../engine/rules/rule.js';
import { shopIdsOf, shopRange, type Databases } from './database.js';
import { LmdbShopLog, type ShopLog } from './shop-log.js';

export interface ProductsPut {
  position: number;
  upserted: number;
}

export class CatalogStore {
  constructor(
    readonly dbs: Databases,
    readonly log: ShopLog = new LmdbShopLog(dbs),
  ) {}

  /**
   * Resolves with the change's log position and how many products it stored: those older than the
   * stored ones (sourceUpdatedAt) are left out, and when all are, nothing is appended and the
   * position is the shop's head. `keepCollections` keeps each product's stored collections.
   */
  async put(shopId: string, products: readonly Product[], at = Date.now(), keepCollections = false): Promise<ProductsPut> {
    const appended = await this.log.append(shopId, { kind: 'put-products', products, ...(keepCollections ? { keepCollections } : {}) }, at);
    if (appended === undefined) return { position: this.log.head(shopId, true), upserted: 0 };
    return { position: appended.position, upserted: appended.change.kind === 'products' ? appended.change.products.length : 0 };
  }

  /** Resolves with the change's log position, or undefined when the product did not exist. */
  async remove(shopId: string, productId: string, at = Date.now()): Promise<number | undefined> {
    if (this.dbs.products.get([shopId, productId]) === undefined) return undefined;
    // Checked again as the command is appended: another process may have removed it meanwhile.
    const appended = await this.log.append(shopId, { kind: 'remove-product', productId }, at);
    return appended?.position;
  }

  *readShop(shopId: string): Iterable<Product> {
    for (const { value } of this.dbs.products.getRange(shopRange(shopId))) yield value;
  }

  /** The shop's rules (PUT /api/rules/{id}), in id order: merchandising kept beside the catalog. */
  *readRules(shopId: string): Iterable<Rule> {
    for (const { value } of this.dbs.rules.getRange(shopRange(shopId))) yield value;
  }

  shopIds(): Iterable<string> {
    return shopIdsOf(this.dbs.products);
  }
}
