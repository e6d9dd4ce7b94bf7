// Rules' use cases (PUT, GET, list, DELETE /api/rules, and the dashboard's preview): a rule is
// validated against the wire type and against the shop's catalog (its filters may name only
// attributes the catalog has), then appended to the shop's log; reads come from the log's table
// (the same in every server process of the data dir, at once after a write).
import { parseRecommendationQuery, filterError } from '../api/recommendation-query.js';
import { parseRule, ruleFilters, MAX_RULES_PER_SHOP } from '../api/rule.js';
import { shapeFor } from '../engine/answer-shaping.js';
import { parseFilter } from '../engine/filters/filter-syntax.js';
import { recommend, requestContext, type Recommendation } from '../engine/recommend.js';
import type { Rule } from '../engine/rules/rule.js';
import { AppError, type FieldError } from '../errors.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { RuleStore } from '../store/rule-store.js';

export class Rules {
  constructor(
    readonly store: RuleStore,
    readonly engines: ShopEngines,
  ) {}

  list(shopId: string): Rule[] {
    return this.store.list(shopId);
  }

  /** Throws not_found. */
  get(shopId: string, id: string): Rule {
    const rule = this.store.get(shopId, id);
    if (rule === undefined) throw new AppError('not_found', `no rule "${id.slice(0, 80)}"`);
    return rule;
  }

  /** The rule `input` describes for the shop, as it would be stored at `now`; throws invalid_rule with every field error. */
  validate(shopId: string, id: string, input: unknown, now: number): Rule {
    const parsed = parseRule(id, input);
    if (!parsed.ok) throw invalid(parsed.errors);
    const engine = this.engines.face(shopId);
    const errors: FieldError[] = [];
    for (const { pointer, text } of ruleFilters(parsed.rule)) {
      const expression = parseFilter(text);
      if (!expression.ok) continue; // parseRule reported it
      const error = engine.checkFilter(expression.expression);
      if (error !== undefined) errors.push({ pointer, detail: error.detail, position: error.position, expected: error.expected });
    }
    const diversity = parsed.rule.then.diversity;
    if (diversity !== undefined) {
      const error = engine.checkDiversity({ attribute: diversity.by, max: diversity.max });
      if (error !== undefined) errors.push({ pointer: '/then/diversity/by', detail: error.detail, expected: error.expected });
    }
    if (errors.length > 0) throw invalid(errors);
    return { ...parsed.rule, updatedAt: now };
  }

  /**
   * Validates and stores the rule of `id` (added or replaced); resolves with it and whether it is
   * new. Throws invalid_rule with every field error, too_many_rules past the shop's bound.
   */
  async put(shopId: string, id: string, input: unknown, now: number): Promise<{ rule: Rule; created: boolean; position: number }> {
    const rule = this.validate(shopId, id, input, now);
    const created = this.store.get(shopId, id) === undefined;
    const position = await this.store.put(shopId, rule, now);
    if (position === undefined) throw new AppError('too_many_rules', `a shop holds at most ${MAX_RULES_PER_SHOP} rules: delete one first`);
    return { rule, created, position };
  }

  /** Resolves with the removal's log position; throws not_found when the shop has no such rule. */
  async remove(shopId: string, id: string, now: number): Promise<number> {
    const position = await this.store.remove(shopId, id, now);
    if (position === undefined) throw new AppError('not_found', `no rule "${id.slice(0, 80)}"`);
    return position;
  }

  /**
   * The answer to a GET /api/recommendations query string with the shop's rules as they are, and
   * with the draft `rule` put as `id` (validated as put would; nothing is stored; the answer cache is
   * not used). The query is the merchant's own: its customerId is taken as is. Throws invalid_rule, invalid_query.
   */
  preview(shopId: string, request: { id: string; rule: unknown; query: string }, now: number): { before: Recommendation; after: Recommendation } {
    return this.#preview(shopId, request.query, this.validate(shopId, request.id, request.rule, now), now);
  }

  #preview(shopId: string, rawQuery: string, draft: Rule, now: number): { before: Recommendation; after: Recommendation } {
    const parsed = parseRecommendationQuery(rawQuery);
    if (!parsed.ok) throw parsed.error;
    const query = parsed.query;
    const engine = this.engines.get(shopId);
    // A shape holds what its answer picked (a diversity cap): one per answer.
    const shape = () => {
      const shaped = shapeFor(engine, query, requestContext(engine, query));
      if (!shaped.ok) throw filterError(shaped.parameter, shaped.error);
      return shaped.shape;
    };
    const book = engine.ruleBookCopy();
    book.put(draft);
    const before = recommend(engine, query, now, shape());
    const after = recommend(engine, query, now, shape(), book);
    return { before, after };
  }
}

function invalid(errors: FieldError[]): AppError {
  const first = errors[0]!;
  return new AppError('invalid_rule', `${first.pointer || 'rule'}: ${first.detail}`, errors);
}
