// GET /api/stats (secret key) and GET /dashboard/data/stats (the signed-in session's shop, never
// cached): what recommendations earned over a day range (app/stats.ts).
import type { Headers } from '../../transport/exchange.js';
import type { Handler } from '../../transport/route.js';
import type { HttpDeps } from '../deps.js';
import type { ShopCaller } from '../route-declaration.js';

export function getStats(headers?: Headers): (deps: HttpDeps) => Handler<ShopCaller> {
  return (deps) => (call) => call.json(JSON.stringify(deps.stats.answer(call.principal.shopId, call.request.query, deps.clock())), 200, headers);
}
