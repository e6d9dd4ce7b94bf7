// GET /api/shop (secret key): who the key's shop is, what it holds, and the settings it runs with;
// DELETE /api/shop?confirm=<shopId> (secret key): the shop erased, on every server process.
import { AppError } from '../../errors.js';
import type { HttpDeps } from '../deps.js';
import type { ShopErased } from '../../api/responses.js';
import { admit } from '../../transport/rate-limits.js';
import type { Handler } from '../../transport/route.js';

const HOUR_MS = 3_600_000;

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
          shoppers: engine.shoppers.size,
          pendingEvents: engine.pending.size,
          keys: record.keys,
        },
        settings: {
          allowedOrigins: record.allowedOrigins,
          customerTokenSecrets: record.customerTokenSecrets,
          appProxy: record.appProxy,
          eventWeights: models.eventWeights,
          trendingHalfLifeHours: models.trendingHalfLifeMs / HOUR_MS,
          maxShoppers: models.maxShoppers,
          maxPendingEvents: models.maxPendingEvents,
        },
      }),
    );
  };
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
