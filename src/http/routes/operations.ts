// Operations: GET /healthz (no key) and GET /metrics (Prometheus text: the node, and the admin key's shop).
import { METRICS_CONTENT_TYPE } from '../../app/node-metrics.js';
import type { Principal } from '../../app/principal.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../../transport/route.js';

/**
 * Which process answered and how far it is behind the log. Per-shop positions are in /metrics
 * (admin key): this route has no key, and a list of shop ids is not for anyone who asks.
 */
export function getHealth(deps: HttpDeps): Handler {
  return (call) => call.json(JSON.stringify(deps.node.health()));
}

/** Every server process of the node answers (a supervisor's servers through it): the same totals whichever one the scrape reaches. */
export function getMetrics(deps: HttpDeps): Handler<Principal> {
  return async (call) => {
    call.send(200, METRICS_CONTENT_TYPE, await deps.metrics.scrape(call.principal.shopId));
  };
}
