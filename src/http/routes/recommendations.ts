// GET /api/recommendations: validate the query, ask the shop's engine, answer from fragments.
import { parseRecommendationQuery } from '../../api/recommendation-query.js';
import { recommend } from '../../engine/recommend.js';
import { authenticate } from '../auth.js';
import { allowOrigin } from '../cors.js';
import type { HttpDeps } from '../deps.js';
import { recommendationJson } from '../render.js';
import type { Handler } from '../route.js';

export function getRecommendations(deps: HttpDeps): Handler {
  return (exchange) => {
    allowOrigin(exchange);
    const principal = authenticate(exchange.request, deps.resolveKey, 'recommendations:read');
    const parsed = parseRecommendationQuery(exchange.request.query);
    if (!parsed.ok) throw parsed.error;
    const result = recommend(deps.engines.get(principal.shopId), parsed.query, deps.clock());
    exchange.json(recommendationJson(result));
  };
}
