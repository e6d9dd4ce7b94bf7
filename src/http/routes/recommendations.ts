// GET /api/recommendations: validate the query, answer it (from the answer cache when still exact).
// With `after=` (or Pairwise-After:) naming a write's position, the answer waits until this server
// process has applied it (bounded), so a shopper reads their own writes from any process.
import { allowOrigin } from '../cors.js';
import type { HttpDeps } from '../deps.js';
import type { Exchange } from '../../transport/exchange.js';
import { admit } from '../../transport/rate-limits.js';
import type { Handler } from '../../transport/route.js';

/** The raw `after` position of the request: the query's first, else the header; '' when none. */
function afterParam(exchange: Exchange): string {
  const query = exchange.request.query;
  // One substring test on the hot path: only a query that has one is parsed for it.
  if (query.includes('after=')) {
    const value = new URLSearchParams(query).get('after');
    if (value) return value;
  }
  return exchange.request.headers?.['pairwise-after'] ?? '';
}

/** An answer for one shopper (their history, their dismissals) is theirs: no shared cache may keep it. */
const FOR_ONE_SHOPPER = { 'cache-control': 'private, no-store' } as const;

/** Whether the query names a shopper (a customer, a token, a session): a few substring tests. */
function namesShopper(query: string): boolean {
  return query.includes('customerId=') || query.includes('sessionId=') || query.includes('customerToken=');
}

export function getRecommendations(deps: HttpDeps): Handler {
  return (exchange) => {
    allowOrigin(exchange);
    const principal = admit(exchange, deps, 'recommendations:read');
    const answers = deps.answers;
    const query = exchange.request.query;
    const after = afterParam(exchange);
    const waiting = after === '' ? undefined : deps.positions.pending(principal.shopId, after);
    if (waiting !== undefined) {
      exchange.watchAbort();
      return waiting.then((applied) => {
        if (exchange.aborted) return;
        exchange.json(answers.body(answers.forQueryString(principal, query, deps.clock()), !applied), 200, namesShopper(query) ? FOR_ONE_SHOPPER : undefined);
      });
    }
    exchange.json(answers.body(answers.forQueryString(principal, query, deps.clock())), 200, namesShopper(query) ? FOR_ONE_SHOPPER : undefined);
  };
}
