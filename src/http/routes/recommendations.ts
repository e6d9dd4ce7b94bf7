// GET /api/recommendations: validate the query, answer it (from the answer cache when still exact).
import { parseRecommendationQuery } from '../../api/recommendation-query.js';
import { authenticate } from '../auth.js';
import { allowOrigin } from '../cors.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../route.js';

export function getRecommendations(deps: HttpDeps): Handler {
  return (exchange) => {
    allowOrigin(exchange);
    const principal = authenticate(exchange.request, deps.resolveKey, 'recommendations:read');
    const parsed = parseRecommendationQuery(exchange.request.query);
    if (!parsed.ok) throw parsed.error;
    exchange.json(deps.answers.answer(principal.shopId, parsed.query, deps.clock()).json);
  };
}
