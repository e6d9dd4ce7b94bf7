// The tables a log change writes: the current catalog, shop records, keys, experiments and rules, a view
// of the log kept beside it for lookups (a key by its hash, a product by id). Written inside the
// transaction that appends the change, so the view is never ahead of or behind the log.
import type { Databases } from './database.js';
import { unknownChange, type ShopChange } from './log-entry.js';

/** Writes what `change`, appended at `position` at time `at`, changes in the tables beside the log. */
export function writeChange(dbs: Databases, shopId: string, change: ShopChange, position: number, at: number): void {
  switch (change.kind) {
    case 'products':
      for (const product of change.products) dbs.products.put([shopId, product.id], product);
      return;
    case 'product-removed':
      dbs.products.remove([shopId, change.productId]);
      return;
    case 'shop':
      dbs.shops.put(shopId, change.record);
      return;
    case 'key-added':
      dbs.apiKeys.put(change.hash, change.record);
      return;
    case 'key-revoked':
      dbs.apiKeys.remove(change.hash);
      return;
    case 'experiment':
      dbs.experiments.put([shopId, change.record.number], change.record);
      return;
    case 'rule':
      dbs.rules.put([shopId, change.rule.id], change.rule);
      return;
    case 'rule-removed':
      dbs.rules.remove([shopId, change.ruleId]);
      return;
    case 'ease-fit':
      return; // its artifact is written by LmdbShopLog.publishEaseFit, beside the entry
    case 'order-cancelled':
      return; // attribution's alone: no table holds orders
    case 'customer-erased':
      // Its events and their index rows went in the erasure's commit; the names it holds go once a snapshot covers it.
      dbs.erasuresNamed.put([shopId, position], at);
      return;
    case 'erasure-done':
    case 'event-erased':
      return;
    default:
      return unknownChange(change);
  }
}
