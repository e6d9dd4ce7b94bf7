// The experiment routes (secret key): POST and GET /api/experiments, GET /api/experiments/:id (with
// its results so far), POST /api/experiments/:id/start, /stop and /conclude. The dashboard's data
// routes share the work below (readAndCreate, withResults) and differ only in who may call.
import { experimentView, type ExperimentRecord } from '../../api/experiment.js';
import type { ExperimentWithResults } from '../../api/responses.js';
import { experimentResults } from '../../analytics/statistics.js';
import type { Experiments } from '../../app/experiments.js';
import { checkJsonContentType, parseJson, readBody } from '../../transport/body.js';
import type { HttpDeps } from '../deps.js';
import type { Exchange } from '../../transport/exchange.js';
import { admit } from '../../transport/rate-limits.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

/** Experiment bodies are small: a name, a widget and at most 15 variants. */
export const MAX_EXPERIMENT_BODY_BYTES = 16 * 1024;

/** Reads the JSON body and creates the experiment (a draft); the experiment's view as JSON. */
export async function readAndCreate(deps: HttpDeps, experiments: Experiments, shopId: string, exchange: Exchange): Promise<string> {
  checkJsonContentType(exchange.request.contentType);
  const input = parseJson(await readBody(exchange, MAX_EXPERIMENT_BODY_BYTES));
  return JSON.stringify(experimentView(await experiments.create(shopId, input, deps.clock())));
}

export function postExperiment(deps: HttpDeps, experiments: Experiments): Handler {
  return async (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(await readAndCreate(deps, experiments, shopId, exchange), 201);
  };
}

export function listExperiments(deps: HttpDeps, experiments: Experiments): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(JSON.stringify({ experiments: experiments.list(shopId).map(experimentView) }));
  };
}

/** The experiment with its variants' numbers over every kept day and each compared with A. */
export function withResults(deps: HttpDeps, shopId: string, record: ExperimentRecord): ExperimentWithResults {
  const attribution = deps.engines.get(shopId).attribution;
  const { variants, comparisons } = experimentResults(attribution, { fromDay: -Infinity, toDay: Infinity }, record.number, record.variants.length);
  return { ...experimentView(record), results: { variants, comparisons } };
}

export function getExperiment(deps: HttpDeps, experiments: Experiments): Handler {
  return (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(JSON.stringify(withResults(deps, shopId, experiments.get(shopId, id!))));
  };
}

export function postExperimentAction(deps: HttpDeps, experiments: Experiments, action: 'start' | 'stop' | 'conclude'): Handler {
  return async (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const record = await experiments[action](shopId, id!, deps.clock());
    exchange.json(JSON.stringify(withResults(deps, shopId, record)));
  };
}
