// Operations: GET /healthz (no key) and GET /metrics (Prometheus text: the node, and the admin key's shop).
import type { Health } from '../../api/responses.js';
import { METRICS_CONTENT_TYPE } from '../../app/node-metrics.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../../transport/rate-limits.js';
import type { Handler } from '../../transport/route.js';

/**
 * Which process answered and how far it is behind the log. Per-shop positions are in /metrics
 * (admin key): this route has no key, and a list of shop ids is not for anyone who asks.
 */
export function getHealth(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shops, behind } = deps.tail.lag();
    const problems = deps.logProblems();
    const health: Health = problems.length === 0 ? { status: 'ok', pid: process.pid, shops, behind } : { status: 'degraded', problems, pid: process.pid, shops, behind };
    exchange.json(JSON.stringify(health));
  };
}

/** Every server process of the node answers (a supervisor's servers through it): the same totals whichever one the scrape reaches. */
export function getMetrics(deps: HttpDeps): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.send(200, METRICS_CONTENT_TYPE, await deps.metrics.scrape(shopId));
  };
}
