// GET /api/stats (secret key): what recommendations earned over a day range, grouped by strategy,
// widget, experiment variant or day (analytics/statistics.ts; docs/analytics.md).
import { statistics } from '../../analytics/statistics.js';
import { parseStatsQuery } from '../../api/stats-query.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../rate-limits.js';
import type { Handler } from '../route.js';

export function getStats(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const parsed = parseStatsQuery(exchange.request.query, deps.clock());
    if (!parsed.ok) throw parsed.error;
    const { groupBy, ...range } = parsed.query;
    exchange.json(JSON.stringify(statistics(deps.engines.get(shopId).attribution, range, groupBy)));
  };
}
