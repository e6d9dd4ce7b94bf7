// GET /api/shop/model (secret key): the settings personalized runs with in the key's shop and how
// its latest refit chose them (app/shop-model.ts).
import type { HttpDeps } from '../deps.js';
import { shopModel } from '../../app/shop-model.js';
import { admit } from '../../transport/rate-limits.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

export function getShopModel(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(JSON.stringify(shopModel(shopId, deps.engines.get(shopId), deps.config.easeRefit.lambda)));
  };
}
