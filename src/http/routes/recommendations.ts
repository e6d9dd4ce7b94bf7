// GET /api/recommendations: validate the query, answer it (from the answer cache when still exact).
// With `after=` (or Pairwise-After:) naming a write's position, the answer waits until this server
// process has applied it (bounded), so a shopper reads their own writes from any process.
import type { Principal } from '../../app/principal.js';
import type { HttpDeps } from '../deps.js';
import type { Exchange } from '../../transport/exchange.js';
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

export function getRecommendations(deps: HttpDeps): Handler<Principal> {
  const answers = deps.answers;
  return (call) => {
    const principal = call.principal;
    const query = call.request.query;
    const after = afterParam(call);
    const waiting = after === '' ? undefined : deps.positions.pending(principal.shopId, after);
    if (waiting !== undefined) {
      return waiting.then((applied) => {
        if (call.aborted) return;
        call.json(answers.body(answers.forQueryString(principal, query, deps.clock()), !applied), 200, namesShopper(query) ? FOR_ONE_SHOPPER : undefined);
      });
    }
    call.json(answers.body(answers.forQueryString(principal, query, deps.clock())), 200, namesShopper(query) ? FOR_ONE_SHOPPER : undefined);
  };
}
