// The shop's own settings, each stored as one shop change in its log so that every server process
// applies it from the same position: the widget ids attribution names (PUT /api/shop/widgets),
// whether time-based priors shape its answers (PUT /api/shop/recency), the currency of its prices
// (PUT /api/shop/currency). The values come validated (api/widgets.ts, recency.ts, currency.ts).
import type { ShopRecency } from '../api/recency.js';
import type { Recency } from '../engine/engine-config.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import { AppError } from '../errors.js';
import type { ShopStore } from '../store/shop-store.js';

export class ShopSettings {
  constructor(
    readonly shops: ShopStore,
    readonly engines: ShopEngines,
  ) {}

  /** Replaces the shop's registered widgets; resolves with them once applied. Throws not_found for a shop without a record. */
  async registerWidgets(shopId: string, widgets: string[]): Promise<string[]> {
    this.#recorded(shopId);
    await this.shops.setWidgets(shopId, widgets);
    return widgets;
  }

  /** Sets the shop's recency; resolves with the setting and what its answers apply once applied. */
  async setRecency(shopId: string, recency: Recency): Promise<ShopRecency> {
    this.#recorded(shopId);
    await this.shops.setRecency(shopId, recency);
    return this.recency(shopId);
  }

  /** The shop's recency setting and what its answers apply (the engine decides: ShopEngine.timePriors). */
  recency(shopId: string): ShopRecency {
    const engine = this.engines.face(shopId);
    return { recency: engine.recency, effective: engine.timePriors ? 'auto' : 'off' };
  }

  /** Sets the currency of the shop's prices; resolves with it once applied. */
  async setCurrency(shopId: string, currency: string): Promise<string> {
    this.#recorded(shopId);
    await this.shops.setCurrency(shopId, currency);
    return currency;
  }

  #recorded(shopId: string): void {
    if (this.shops.getShop(shopId) === undefined) throw new AppError('not_found', `shop "${shopId}" has no record`);
  }
}
