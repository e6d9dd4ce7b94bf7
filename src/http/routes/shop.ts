// GET /api/shop (secret key): who the key's shop is, what it holds, and the settings it runs with;
// GET /api/shop/model: what personalized runs with and why (app/shop-model.ts);
// PUT /api/shop/widgets: the widget ids attribution names (docs/analytics.md);
// PUT /api/shop/recency: whether time-based priors shape the shop's answers;
// PUT /api/shop/currency: the currency the shop's prices are in;
// DELETE /api/shop?confirm=<shopId>: the shop erased, on every server process.
import type { ShopCurrency } from '../../api/currency.js';
import type { Recency } from '../../engine/engine-config.js';
import type { RegisteredWidgets } from '../../api/widgets.js';
import type { Principal } from '../../app/principal.js';
import { AppError } from '../../errors.js';
import type { HttpDeps } from '../deps.js';
import type { ShopErased } from '../../api/responses.js';
import type { Handler } from '../../transport/route.js';

/** 64 ids of 128 characters, escaped: well under this. */
export const MAX_WIDGETS_BODY_BYTES = 64 * 1024;
/** {"recency":"auto"} or {"currency":"EUR"} with room to spare. */
export const MAX_RECENCY_BODY_BYTES = 1024;
export const MAX_CURRENCY_BODY_BYTES = 1024;

export function getShop(deps: HttpDeps): Handler<Principal> {
  return (call) => call.json(JSON.stringify(deps.shops.info(call.principal.shopId)));
}

export function getShopModel(deps: HttpDeps): Handler<Principal> {
  return (call) => call.json(JSON.stringify(deps.shops.model(call.principal.shopId)));
}

export function putShopWidgets(deps: HttpDeps): Handler<Principal, string[]> {
  return async (call) => {
    const answer: RegisteredWidgets = { widgets: await deps.settings.registerWidgets(call.principal.shopId, call.body) };
    call.json(JSON.stringify(answer));
  };
}

export function putShopRecency(deps: HttpDeps): Handler<Principal, Recency> {
  return async (call) => call.json(JSON.stringify(await deps.settings.setRecency(call.principal.shopId, call.body)));
}

export function putShopCurrency(deps: HttpDeps): Handler<Principal, string> {
  return async (call) => {
    const answer: ShopCurrency = { currency: await deps.settings.setCurrency(call.principal.shopId, call.body) };
    call.json(JSON.stringify(answer));
  };
}

export function deleteShop(deps: HttpDeps): Handler<Principal> {
  return async (call) => {
    const { shopId } = call.principal;
    if (new URLSearchParams(call.request.query).get('confirm') !== shopId) {
      throw new AppError('confirmation_required', `erasing a shop needs ?confirm= with its id ("${shopId}")`, [{ pointer: '/confirm', detail: 'must be the shop id' }]);
    }
    await deps.shopErasure.erase(shopId);
    call.json(JSON.stringify({ success: true, erased: shopId } satisfies ShopErased));
  };
}
