// The experiment routes (secret key): POST and GET /api/experiments, GET /api/experiments/:id (with
// its results so far), POST /api/experiments/:id/start, /stop and /conclude.
import { experimentView, type ExperimentRecord } from '../../api/experiment.js';
import { experimentResults } from '../../analytics/statistics.js';
import type { Experiments } from '../../ingest/experiments.js';
import { checkJsonContentType, parseJson, readBody } from '../body.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../rate-limits.js';
import type { Handler } from '../route.js';

/** Experiment bodies are small: a name, a widget and at most 15 variants. */
export const MAX_EXPERIMENT_BODY_BYTES = 16 * 1024;

export function postExperiment(deps: HttpDeps, experiments: Experiments): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_EXPERIMENT_BODY_BYTES));
    const record = await experiments.create(shopId, input, deps.clock());
    exchange.json(JSON.stringify(experimentView(record)), 201);
  };
}

export function listExperiments(deps: HttpDeps, experiments: Experiments): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(JSON.stringify({ experiments: experiments.list(shopId).map(experimentView) }));
  };
}

/** The experiment with its variants' numbers over every kept day and each compared with A. */
function withResults(deps: HttpDeps, shopId: string, record: ExperimentRecord): string {
  const attribution = deps.engines.get(shopId).attribution;
  const { variants, comparisons } = experimentResults(attribution, { fromDay: -Infinity, toDay: Infinity }, record.number, record.variants.length);
  return JSON.stringify({ ...experimentView(record), results: { variants, comparisons } });
}

export function getExperiment(deps: HttpDeps, experiments: Experiments): Handler {
  return (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(withResults(deps, shopId, experiments.get(shopId, id!)));
  };
}

export function postExperimentAction(deps: HttpDeps, experiments: Experiments, action: 'start' | 'stop' | 'conclude'): Handler {
  return async (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const record = await experiments[action](shopId, id!, deps.clock());
    exchange.json(withResults(deps, shopId, record));
  };
}
