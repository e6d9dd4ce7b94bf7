// The merchant's widgets (PUT /api/shop/widgets): validated, then stored as one shop change in the
// log, so every server process names them in attribution from the same position on.
import { parseWidgets } from '../api/widgets.js';
import { AppError } from '../errors.js';
import type { ShopStore } from '../store/shop-store.js';

export class WidgetRegistry {
  constructor(readonly shops: ShopStore) {}

  /** Replaces the shop's registered widgets; resolves with them once applied. Throws AppError('invalid_widgets'). */
  async register(shopId: string, input: unknown): Promise<string[]> {
    const parsed = parseWidgets(input);
    if (!parsed.ok) throw new AppError('invalid_widgets', `${parsed.errors[0]!.pointer || 'body'} ${parsed.errors[0]!.detail}`, parsed.errors);
    if (this.shops.getShop(shopId) === undefined) throw new AppError('not_found', `shop "${shopId}" has no record`);
    await this.shops.setWidgets(shopId, parsed.widgets);
    return parsed.widgets;
  }
}
