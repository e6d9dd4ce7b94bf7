// A subscribe message's query object → the same validated query as GET /api/recommendations (it is
// turned into a query string and parsed by the same function, so errors are identical).
import { parseRecommendationQuery, type QueryParse, type RecommendationQuery } from '../api/recommendation-query.js';
import type { QueryValue } from './protocol.js';

/** Lists become comma lists (as `exclude` is written in a URL); null means absent. */
export function queryString(query: Readonly<Record<string, QueryValue>>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === null) continue;
    params.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  return params.toString();
}

export function parseSubscriptionQuery(query: Readonly<Record<string, QueryValue>>): QueryParse {
  return parseRecommendationQuery(queryString(query));
}
