// The experiment routes: POST and GET /api/experiments, GET /api/experiments/:id (with its results
// so far), POST /api/experiments/:id/start, /stop and /conclude (secret key), and the same from the
// signed-in dashboard under /dashboard/data/experiments (its answers never cached).
import { experimentView, type NewExperiment } from '../../api/experiment.js';
import type { DashboardExperiments } from '../../api/responses.js';
import type { Headers } from '../../transport/exchange.js';
import type { Handler } from '../../transport/route.js';
import type { HttpDeps } from '../deps.js';
import type { ShopCaller } from '../route-declaration.js';

/** Experiment bodies are small: a name, a widget and at most 15 variants. */
export const MAX_EXPERIMENT_BODY_BYTES = 16 * 1024;

export type ExperimentAction = 'start' | 'stop' | 'conclude';

/** The experiment routes of a caller: `headers` go on every answer (the dashboard's: no-store). */
export function experimentRoutes(headers?: Headers) {
  return {
    create: (deps: HttpDeps): Handler<ShopCaller, NewExperiment> => async (call) => {
      call.json(JSON.stringify(experimentView(await deps.experiments.create(call.principal.shopId, call.body, deps.clock()))), 201, headers);
    },
    list: (deps: HttpDeps): Handler<ShopCaller> => (call) => {
      call.json(JSON.stringify({ experiments: deps.experiments.list(call.principal.shopId).map(experimentView) }), 200, headers);
    },
    /** Every experiment with its results so far, newest first (the dashboard's list). */
    listWithResults: (deps: HttpDeps): Handler<ShopCaller> => (call) => {
      const { shopId } = call.principal;
      const list: DashboardExperiments = { experiments: deps.experiments.list(shopId).reverse().map((record) => deps.experiments.withResults(shopId, record)) };
      call.json(JSON.stringify(list), 200, headers);
    },
    get: (deps: HttpDeps): Handler<ShopCaller> => (call) => {
      const { shopId } = call.principal;
      call.json(JSON.stringify(deps.experiments.withResults(shopId, deps.experiments.get(shopId, call.params[0]!))), 200, headers);
    },
    act: (action: ExperimentAction) => (deps: HttpDeps): Handler<ShopCaller> => async (call) => {
      const { shopId } = call.principal;
      const record = await deps.experiments[action](shopId, call.params[0]!, deps.clock());
      call.json(JSON.stringify(deps.experiments.withResults(shopId, record)), 200, headers);
    },
  };
}
