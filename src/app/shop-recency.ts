// The shop's recency setting (PUT /api/shop/recency): validated, then stored as one shop change in
// the log, so every server process turns the time-based priors off (or on) from the same position.
import { parseRecency } from '../api/recency.js';
import type { Recency } from '../engine/engine-config.js';
import { AppError } from '../errors.js';
import type { ShopStore } from '../store/shop-store.js';

export class RecencySetting {
  constructor(readonly shops: ShopStore) {}

  /** Sets the shop's recency; resolves with it once applied. Throws AppError('invalid_recency'). */
  async set(shopId: string, input: unknown): Promise<Recency> {
    const parsed = parseRecency(input);
    if (!parsed.ok) throw new AppError('invalid_recency', `${parsed.errors[0]!.pointer || 'body'} ${parsed.errors[0]!.detail}`, parsed.errors);
    if (this.shops.getShop(shopId) === undefined) throw new AppError('not_found', `shop "${shopId}" has no record`);
    await this.shops.setRecency(shopId, parsed.recency);
    return parsed.recency;
  }
}
