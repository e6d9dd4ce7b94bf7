// The rule routes (secret key): PUT, GET and DELETE /api/rules/{id}, GET /api/rules.
import { MAX_RULE_BYTES, ruleView, type RuleDeleted, type RuleList, type RuleStored } from '../../api/rule.js';
import { checkJsonContentType, parseJson, readBody } from '../../transport/body.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../../transport/rate-limits.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

export { MAX_RULE_BYTES };

export function putRule(deps: HttpDeps): Handler {
  return async (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, MAX_RULE_BYTES));
    const stored = await deps.rules.put(shopId, id!, input, deps.clock());
    const body: RuleStored = { rule: ruleView(stored.rule, deps.config.engine.gidPlatform), position: deps.pipeline.positionToken(stored.position) };
    exchange.json(JSON.stringify(body), stored.created ? 201 : 200);
  };
}

export function listRules(deps: HttpDeps): Handler {
  return (exchange) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const body: RuleList = { rules: deps.rules.list(shopId).map((rule) => ruleView(rule, deps.config.engine.gidPlatform)) };
    exchange.json(JSON.stringify(body));
  };
}

export function getRule(deps: HttpDeps): Handler {
  return (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    exchange.json(JSON.stringify(ruleView(deps.rules.get(shopId, id!), deps.config.engine.gidPlatform)));
  };
}

export function deleteRule(deps: HttpDeps): Handler {
  return async (exchange, [id]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const position = await deps.rules.remove(shopId, id!, deps.clock());
    exchange.json(JSON.stringify({ success: true, deleted: id!, position: deps.pipeline.positionToken(position) } satisfies RuleDeleted));
  };
}
