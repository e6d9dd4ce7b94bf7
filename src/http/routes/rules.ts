// The rule routes: PUT, GET and DELETE /api/rules/{id}, GET /api/rules (secret key), and the same
// from the signed-in dashboard under /dashboard/data/rules (its answers never cached), with its
// preview of a draft rule. Rules are validated by their use case, against the shop's catalog.
import { MAX_RULE_BYTES, ruleView, type RuleDeleted, type RuleList, type RuleStored } from '../../api/rule.js';
import { recommendationJson } from '../../app/render.js';
import type { Headers } from '../../transport/exchange.js';
import type { Handler } from '../../transport/route.js';
import type { HttpDeps } from '../deps.js';
import type { ShopCaller } from '../route-declaration.js';

export { MAX_RULE_BYTES };

/** The rule routes of a caller: `headers` go on every answer (the dashboard's: no-store). */
export function ruleRoutes(headers?: Headers) {
  return {
    put: (deps: HttpDeps): Handler<ShopCaller, unknown> => async (call) => {
      const stored = await deps.rules.put(call.principal.shopId, call.params[0]!, call.body, deps.clock());
      const body: RuleStored = { rule: ruleView(stored.rule, deps.config.engine.gidPlatform), position: deps.positionToken(stored.position) };
      call.json(JSON.stringify(body), stored.created ? 201 : 200, headers);
    },
    list: (deps: HttpDeps): Handler<ShopCaller> => (call) => {
      const body: RuleList = { rules: deps.rules.list(call.principal.shopId).map((rule) => ruleView(rule, deps.config.engine.gidPlatform)) };
      call.json(JSON.stringify(body), 200, headers);
    },
    get: (deps: HttpDeps): Handler<ShopCaller> => (call) => {
      call.json(JSON.stringify(ruleView(deps.rules.get(call.principal.shopId, call.params[0]!), deps.config.engine.gidPlatform)), 200, headers);
    },
    remove: (deps: HttpDeps): Handler<ShopCaller> => async (call) => {
      const [id] = call.params;
      const position = await deps.rules.remove(call.principal.shopId, id!, deps.clock());
      call.json(JSON.stringify({ success: true, deleted: id!, position: deps.positionToken(position) } satisfies RuleDeleted), 200, headers);
    },
    /** The answer to a query before and after a draft rule (nothing stored). */
    preview: (deps: HttpDeps): Handler<ShopCaller, { id: string; rule: unknown; query: string }> => (call) => {
      const { before, after } = deps.rules.preview(call.principal.shopId, call.body, deps.clock());
      call.json(`{"before":${recommendationJson(before)},"after":${recommendationJson(after)}}`, 200, headers);
    },
  };
}
