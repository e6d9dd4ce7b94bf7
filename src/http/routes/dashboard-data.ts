// The dashboard page's data, under /dashboard/data/ (the session cookie's path): the same answers
// as GET /api/stats and the experiment routes, for the signed-in session's shop instead of a
// Bearer key. Reads need the session; changes also need this origin and the session's CSRF token.
import type { DashboardExperiments } from '../../api/responses.js';
import type { Experiments } from '../../app/experiments.js';
import { requireSession, requireSessionForChange } from '../dashboard-auth.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../../transport/route.js';
import { readAndCreate, withResults } from './experiments.js';
import { statsJson } from './stats.js';

/** The data is the shop's own: never cached by the browser or a proxy. */
const NO_STORE = { 'cache-control': 'no-store' } as const;

/** GET /dashboard/data/stats?from=&to=&groupBy=: GET /api/stats's answer. */
export function getDashboardStats(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = requireSession(deps, exchange);
    exchange.json(statsJson(deps, shopId, exchange.request.query), 200, NO_STORE);
  };
}

/** GET /dashboard/data/experiments: every experiment with its results so far, newest first. */
export function getDashboardExperiments(deps: HttpDeps, experiments: Experiments): Handler {
  return (exchange) => {
    const { shopId } = requireSession(deps, exchange);
    const list: DashboardExperiments = { experiments: experiments.list(shopId).reverse().map((record) => withResults(deps, shopId, record)) };
    exchange.json(JSON.stringify(list), 200, NO_STORE);
  };
}

/** POST /dashboard/data/experiments (JSON, as POST /api/experiments). */
export function postDashboardExperiment(deps: HttpDeps, experiments: Experiments): Handler {
  return async (exchange) => {
    const { shopId } = requireSessionForChange(deps, exchange);
    exchange.json(await readAndCreate(deps, experiments, shopId, exchange), 201, NO_STORE);
  };
}

/** POST /dashboard/data/experiments/{id}/start, /stop, /conclude. */
export function postDashboardExperimentAction(deps: HttpDeps, experiments: Experiments, action: 'start' | 'stop' | 'conclude'): Handler {
  return async (exchange, [id]) => {
    const { shopId } = requireSessionForChange(deps, exchange);
    const record = await experiments[action](shopId, id!, deps.clock());
    exchange.json(JSON.stringify(withResults(deps, shopId, record)), 200, NO_STORE);
  };
}
