// GET /api/recommendations: validate the query, answer it (from the answer cache when still exact).
import { allowOrigin } from '../cors.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../rate-limits.js';
import type { Handler } from '../route.js';

export function getRecommendations(deps: HttpDeps): Handler {
  return (exchange) => {
    allowOrigin(exchange);
    const principal = admit(exchange, deps, 'recommendations:read');
    const answers = deps.answers;
    exchange.json(answers.body(answers.forQueryString(principal, exchange.request.query, deps.clock())));
  };
}
