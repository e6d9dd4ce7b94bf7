// Durable catalog: each change is an entry of the shop's log, and the current products are kept
// under [shopId, productId] beside it (written in the same transaction).
import type { Product } from '../engine/product.js';
import type { Rule } from '../engine/rules/rule.js';
import { shopIdsOf, shopRange, type Databases } from './database.js';
import { LmdbShopLog, type ShopLog } from './shop-log.js';

export class CatalogStore {
  constructor(
    readonly dbs: Databases,
    readonly log: ShopLog = new LmdbShopLog(dbs),
  ) {}

  /** Resolves with the change's log position. */
  async put(shopId: string, products: readonly Product[], at = Date.now()): Promise<number> {
    const appended = await this.log.append(shopId, { kind: 'put-products', products }, at);
    return appended!.position;
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
