// The shop's currency (PUT /api/shop/currency): validated, then stored as one shop change in the log,
// so every server process shows the shop's money in it.
import { parseCurrency } from '../api/currency.js';
import { AppError } from '../errors.js';
import type { ShopStore } from '../store/shop-store.js';

export class CurrencySetting {
  constructor(readonly shops: ShopStore) {}

  /** Sets the shop's currency; resolves with it once applied. Throws AppError('invalid_currency'). */
  async set(shopId: string, input: unknown): Promise<string> {
    const parsed = parseCurrency(input);
    if (!parsed.ok) throw new AppError('invalid_currency', `${parsed.errors[0]!.pointer || 'body'} ${parsed.errors[0]!.detail}`, parsed.errors);
    if (this.shops.getShop(shopId) === undefined) throw new AppError('not_found', `shop "${shopId}" has no record`);
    await this.shops.setCurrency(shopId, parsed.currency);
    return parsed.currency;
  }
}
