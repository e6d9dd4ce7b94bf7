// GET /api/stats (secret key): what recommendations earned over a day range, grouped by strategy,
// widget, experiment variant, day or product (analytics/statistics.ts; docs/analytics.md). The
// dashboard's data route answers the same through statsJson.
import { statistics } from '../../analytics/statistics.js';
import { parseStatsQuery } from '../../api/stats-query.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../../transport/rate-limits.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

/** The stats answer of a query string for a shop, as JSON; throws invalid_query. */
export function statsJson(deps: HttpDeps, shopId: string, query: string): string {
  const parsed = parseStatsQuery(query, deps.clock());
  if (!parsed.ok) throw parsed.error;
  const { groupBy, ...range } = parsed.query;
  const engine = deps.engines.get(shopId);
  return JSON.stringify(statistics(engine.attribution, range, groupBy, (id) => engine.catalog.get(id)?.title));
}

export function getStats(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(statsJson(deps, shopId, exchange.request.query));
  };
}
