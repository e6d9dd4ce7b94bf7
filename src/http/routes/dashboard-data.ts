// The dashboard page's data, under /dashboard/data/ (the session cookie's path): the same answers
// as GET /api/stats and the experiment routes, for the signed-in session's shop instead of a
// Bearer key. Reads need the session; changes also need this origin and the session's CSRF token.
import type { DashboardExperiments } from '../../api/responses.js';
import type { Experiments } from '../../app/experiments.js';
import { requireSession, requireSessionForChange } from '../dashboard-auth.js';
import type { HttpDeps } from '../deps.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';
import { readAndCreate, withResults } from './experiments.js';
import { MAX_RULE_BYTES, ruleView, type RuleList } from '../../api/rule.js';
import { recommendationJson } from '../../app/render.js';
import { checkJsonContentType, parseJson, readBody } from '../../transport/body.js';
import { AppError } from '../../errors.js';
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

/** GET /dashboard/data/rules: the shop's rules, in id order (as GET /api/rules). */
export function getDashboardRules(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = requireSession(deps, exchange);
    const list: RuleList = { rules: deps.rules.list(shopId).map((rule) => ruleView(rule, deps.config.engine.gidPlatform)) };
    exchange.json(JSON.stringify(list), 200, NO_STORE);
  };
}

/** PUT /dashboard/data/rules/{id} (JSON, as PUT /api/rules/{id}). */
export function putDashboardRule(deps: HttpDeps): Handler {
  return async (exchange, [id]) => {
    const { shopId } = requireSessionForChange(deps, exchange);
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_RULE_BYTES));
    const stored = await deps.rules.put(shopId, id!, input, deps.clock());
    exchange.json(JSON.stringify({ rule: ruleView(stored.rule, deps.config.engine.gidPlatform), position: deps.pipeline.positionToken(stored.position) }), stored.created ? 201 : 200, NO_STORE);
  };
}

/** DELETE /dashboard/data/rules/{id}. */
export function deleteDashboardRule(deps: HttpDeps): Handler {
  return async (exchange, [id]) => {
    const { shopId } = requireSessionForChange(deps, exchange);
    const position = await deps.rules.remove(shopId, id!, deps.clock());
    exchange.json(JSON.stringify({ success: true, deleted: id!, position: deps.pipeline.positionToken(position) }), 200, NO_STORE);
  };
}

/**
 * POST /dashboard/data/rules/preview `{"id", "rule", "query"}`: the answer to `query` (a GET
 * /api/recommendations query string) with the shop's rules, and with `rule` put as `id` (nothing stored).
 */
export function postDashboardRulePreview(deps: HttpDeps): Handler {
  return async (exchange) => {
    const { shopId } = requireSessionForChange(deps, exchange);
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_RULE_BYTES + 1024)) as { id?: unknown; rule?: unknown; query?: unknown } | null;
    if (input === null || typeof input !== 'object' || typeof input.id !== 'string' || typeof input.query !== 'string' || input.query.length > 2048) {
      throw new AppError('invalid_rule', 'a preview is {"id": string, "rule": {…}, "query": "strategy=…&limit=…"}', [{ pointer: '', detail: 'must be {id, rule, query}' }]);
    }
    const now = deps.clock();
    const draft = deps.rules.validate(shopId, input.id, input.rule ?? {}, now);
    const { before, after } = deps.rules.preview(shopId, input.query.replace(/^\?/, ''), draft, now);
    exchange.json(`{"before":${recommendationJson(before)},"after":${recommendationJson(after)}}`, 200, NO_STORE);
  };
}
