// What recommendations earned over a day range (GET /api/stats and the dashboard's data): read from
// the shop's attribution, grouped by strategy, widget, experiment variant, day or product
// (analytics/statistics.ts; docs/analytics.md).
import { statistics, type StatsAnswer } from '../analytics/statistics.js';
import { parseStatsQuery } from '../api/stats-query.js';
import type { ShopEngines } from '../engine/shop-engines.js';

export class Stats {
  constructor(readonly engines: ShopEngines) {}

  /** The answer to a GET /api/stats query string (without '?'); `now` (epoch ms) dates the default range. Throws invalid_query. */
  answer(shopId: string, query: string, now: number): StatsAnswer {
    const parsed = parseStatsQuery(query, now);
    if (!parsed.ok) throw parsed.error;
    const { groupBy, ...range } = parsed.query;
    const engine = this.engines.face(shopId);
    return statistics(engine.results, range, groupBy, (id) => engine.product(id)?.title);
  }
}
