// GET /api/shop (secret key): who the key's shop is, what it holds, and the settings it runs with;
// PUT /api/shop/widgets (secret key): the widget ids attribution names (docs/analytics.md);
// PUT /api/shop/recency (secret key): whether time-based priors shape the shop's answers;
// PUT /api/shop/currency (secret key): the currency the shop's prices are in;
// DELETE /api/shop?confirm=<shopId> (secret key): the shop erased, on every server process.
import type { ShopCurrency } from '../../api/currency.js';
import type { ShopRecency } from '../../api/recency.js';
import type { RegisteredWidgets } from '../../api/widgets.js';
import { AppError } from '../../errors.js';
import { checkJsonContentType, parseJson, readBody } from '../../transport/body.js';
import { CUSTOMER_SPACE, SESSION_SPACE } from '../../engine/shopper-keys.js';
import type { HttpDeps } from '../deps.js';
import type { ShopErased } from '../../api/responses.js';
import { admit } from '../../transport/rate-limits.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

const HOUR_MS = 3_600_000;

/** 64 ids of 128 characters, escaped: well under this. */
export const MAX_WIDGETS_BODY_BYTES = 64 * 1024;
/** {"recency":"auto"} or {"currency":"EUR"} with room to spare. */
export const MAX_RECENCY_BODY_BYTES = 1024;
export const MAX_CURRENCY_BODY_BYTES = 1024;

export function getShop(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const record = deps.shopRecord(shopId);
    if (record === undefined) throw new AppError('not_found', `shop "${shopId}" has no record`);
    const engine = deps.engines.get(shopId);
    const { catalog } = engine;
    let collections = 0;
    for (const _ of catalog.collectionIds()) collections++;
    const { engine: models } = deps.config;
    exchange.json(
      JSON.stringify({
        shopId,
        createdAt: new Date(record.createdAt).toISOString(),
        demo: record.demo,
        counts: {
          products: catalog.productCount,
          collections,
          events: engine.eventCount,
          // Erased customers and sessions are gone, though their slots wait for reuse.
          shoppers: engine.erasedShoppers.held(),
          customers: engine.erasedShoppers.held(CUSTOMER_SPACE),
          sessions: engine.erasedShoppers.held(SESSION_SPACE),
          pendingEvents: engine.pending.size,
          keys: record.keys,
        },
        settings: {
          allowedOrigins: record.allowedOrigins,
          customerTokenSecrets: record.customerTokenSecrets,
          appProxy: record.appProxy,
          widgets: record.widgets,
          currency: record.currency,
          ...recencyOf(deps, shopId),
          eventWeights: models.eventWeights,
          trendingHalfLifeHours: models.trendingHalfLifeMs / HOUR_MS,
          maxCustomers: models.maxCustomers,
          maxSessions: models.maxSessions,
          maxPendingEvents: models.maxPendingEvents,
        },
      }),
    );
  };
}

export function putShopWidgets(deps: HttpDeps): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_WIDGETS_BODY_BYTES));
    const answer: RegisteredWidgets = { widgets: await deps.widgets.register(shopId, input) };
    exchange.json(JSON.stringify(answer));
  };
}

export function putShopRecency(deps: HttpDeps): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_RECENCY_BODY_BYTES));
    await deps.recency.set(shopId, input);
    exchange.json(JSON.stringify(recencyOf(deps, shopId)));
  };
}

export function putShopCurrency(deps: HttpDeps): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_CURRENCY_BODY_BYTES));
    const answer: ShopCurrency = { currency: await deps.currency.set(shopId, input) };
    exchange.json(JSON.stringify(answer));
  };
}

/** The shop's recency setting and what its answers apply (the engine decides: ShopEngine.timePriors). */
function recencyOf(deps: HttpDeps, shopId: string): ShopRecency {
  const engine = deps.engines.get(shopId);
  return { recency: engine.recency, effective: engine.timePriors ? 'auto' : 'off' };
}

export function deleteShop(deps: HttpDeps): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    if (new URLSearchParams(exchange.request.query).get('confirm') !== shopId) {
      throw new AppError('confirmation_required', `erasing a shop needs ?confirm= with its id ("${shopId}")`, [{ pointer: '/confirm', detail: 'must be the shop id' }]);
    }
    await deps.shopErasure.erase(shopId);
    exchange.json(JSON.stringify({ success: true, erased: shopId } satisfies ShopErased));
  };
}
