// The rule wire type (PUT /api/rules/{id}), its typia validator, its parse into the stored Rule
// (ids normalized, times as epoch ms, every filter parsed: a malformed one is an error naming its
// field, position and the token expected there), and the rule as the API shows it.
import typia, { type tags } from 'typia';
import { parseFilter } from '../engine/filters/filter-syntax.js';
import { MAX_RULES_PER_SHOP, type Rule, type RuleThen, type RuleWhen } from '../engine/rules/rule.js';
import type { Strategy } from '../engine/strategy.js';
import { AppError, type FieldError } from '../errors.js';
import { typiaPathToPointer } from './json-pointer.js';
import { normalizeCollectionId, normalizeProductId, productGid } from './product-id.js';
import type { RuleView } from './rule-view.js';

export type * from './rule-view.js';

export { MAX_RULES_PER_SHOP };
/** A rule's JSON body, in bytes. */
export const MAX_RULE_BYTES = 8 * 1024;
/** Pins of one rule (the largest answer holds 24 items). */
export const MAX_PINS_PER_RULE = 24;
export const MAX_BOOSTS_PER_RULE = 8;

export const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

type RuleId = string & tags.Pattern<'^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'>;
type FilterText = string & tags.MinLength<1> & tags.MaxLength<512>;
type IdText = string & tags.MinLength<1> & tags.MaxLength<160>;

export interface WireRuleWhen {
  /** The answer's strategy, asked for or chosen automatically. */
  strategies?: Strategy[] & tags.MinItems<1> & tags.MaxItems<6>;
  /** The request's widgetId. */
  widgetIds?: (string & tags.MinLength<1> & tags.MaxLength<64>)[] & tags.MinItems<1> & tags.MaxItems<32>;
  /** The request's collectionId (bare or gid). */
  collectionIds?: IdText[] & tags.MinItems<1> & tags.MaxItems<32>;
  /** A filter the request's context product (productId) must satisfy. */
  context?: FilterText;
}

export interface WireRulePin {
  /** Bare or gid. */
  productId: IdText;
  /** 1-based position in the answer. */
  position: number & tags.Type<'uint32'> & tags.Minimum<1> & tags.Maximum<24>;
}

export interface WireRuleThen {
  /** Products placed at positions (they still obey exclude, availability, the shopper's dismissals and the request's filters). */
  pin?: WireRulePin[] & tags.MaxItems<24>;
  /** Products it selects are removed. */
  hide?: FilterText;
  /** Only the products it selects remain. */
  filter?: FilterText;
  /** Scores of the products each filter selects are multiplied by its factor (below 1: bury). */
  boost?: { filter: FilterText; factor: number & tags.ExclusiveMinimum<0> & tags.Maximum<100> }[] & tags.MaxItems<8>;
  /** At most `max` items per value of `by` (vendor, productType or a custom attribute). */
  diversity?: { by: string & tags.MinLength<1> & tags.MaxLength<64>; max: number & tags.Type<'uint32'> & tags.Minimum<1> & tags.Maximum<24> };
}

export interface WireRule {
  /** Optional in the body; when present it must be the id of the path. */
  id?: RuleId;
  /** Default true. */
  enabled?: boolean;
  /** ISO 8601: in force from this instant (inclusive). */
  from?: (string & tags.Format<'date-time'>) | null;
  /** ISO 8601: in force until this instant (exclusive). */
  until?: (string & tags.Format<'date-time'>) | null;
  when?: WireRuleWhen;
  then?: WireRuleThen;
}

export type RuleParse = { ok: true; rule: Omit<Rule, 'updatedAt'> } | { ok: false; errors: FieldError[] };

const validate = typia.createValidate<WireRule>();

/** The error of a filter at `pointer`, or undefined when it parses. */
function filterError(text: string | undefined, pointer: string): FieldError | undefined {
  if (text === undefined) return undefined;
  const parsed = parseFilter(text);
  if (parsed.ok) return undefined;
  const { position, expected, detail } = parsed.error;
  return { pointer, detail, position, expected };
}

/** Never throws: every problem becomes a field error with its JSON pointer. */
export function parseRule(id: string, input: unknown): RuleParse {
  if (!RULE_ID.test(id)) return { ok: false, errors: [{ pointer: '/id', detail: 'a rule id is 1-64 letters, digits, dots, dashes and underscores, starting with a letter or digit' }] };
  const result = validate(input);
  if (!result.success) {
    return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: `must be ${e.expected.replace(/"/g, "'")}` })) };
  }
  const wire = result.data;
  const errors: FieldError[] = [];
  if (wire.id !== undefined && wire.id !== id) errors.push({ pointer: '/id', detail: `must be the id of the path ('${id}')` });
  const from = wire.from == null ? undefined : Date.parse(wire.from);
  const until = wire.until == null ? undefined : Date.parse(wire.until);
  if (from !== undefined && until !== undefined && !(from < until)) errors.push({ pointer: '/until', detail: 'must be after from' });

  const when: { -readonly [K in keyof RuleWhen]: RuleWhen[K] } = {};
  const wireWhen = wire.when ?? {};
  if (wireWhen.strategies !== undefined) when.strategies = [...new Set(wireWhen.strategies)];
  if (wireWhen.widgetIds !== undefined) when.widgetIds = [...new Set(wireWhen.widgetIds)];
  if (wireWhen.collectionIds !== undefined) {
    const ids: string[] = [];
    wireWhen.collectionIds.forEach((raw, i) => {
      const bare = normalizeCollectionId(raw);
      if (bare === undefined) errors.push({ pointer: `/when/collectionIds/${i}`, detail: 'must be a collection id such as 42 or gid://shopify/Collection/42' });
      else ids.push(bare);
    });
    when.collectionIds = [...new Set(ids)];
  }
  if (wireWhen.context !== undefined) when.context = wireWhen.context;

  const then: { -readonly [K in keyof RuleThen]: RuleThen[K] } = {};
  const wireThen = wire.then ?? {};
  if (wireThen.filter !== undefined) then.filter = wireThen.filter;
  if (wireThen.hide !== undefined) then.hide = wireThen.hide;
  if (wireThen.boost !== undefined) then.boost = wireThen.boost.map((b) => ({ filter: b.filter, factor: b.factor }));
  if (wireThen.diversity !== undefined) then.diversity = { by: wireThen.diversity.by, max: wireThen.diversity.max };
  if (wireThen.pin !== undefined) {
    then.pin = wireThen.pin.flatMap((pin, i) => {
      const productId = normalizeProductId(pin.productId);
      if (productId !== undefined) return [{ productId, position: pin.position }];
      errors.push({ pointer: `/then/pin/${i}/productId`, detail: 'must be a product id such as 123 or gid://shopify/Product/123' });
      return [];
    });
  }
  for (const error of [
    filterError(when.context, '/when/context'),
    filterError(then.filter, '/then/filter'),
    filterError(then.hide, '/then/hide'),
    ...(then.boost ?? []).map((b, i) => filterError(b.filter, `/then/boost/${i}/filter`)),
  ]) {
    if (error !== undefined) errors.push(error);
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    rule: { id, enabled: wire.enabled ?? true, ...(from === undefined ? {} : { from }), ...(until === undefined ? {} : { until }), when, then },
  };
}

/** Each filter of a rule and where it sits in the rule's JSON (for errors found against the catalog). */
export function ruleFilters(rule: Pick<Rule, 'when' | 'then'>): { pointer: string; text: string }[] {
  const filters: { pointer: string; text: string }[] = [];
  if (rule.when.context !== undefined) filters.push({ pointer: '/when/context', text: rule.when.context });
  if (rule.then.filter !== undefined) filters.push({ pointer: '/then/filter', text: rule.then.filter });
  if (rule.then.hide !== undefined) filters.push({ pointer: '/then/hide', text: rule.then.hide });
  (rule.then.boost ?? []).forEach((b, i) => filters.push({ pointer: `/then/boost/${i}/filter`, text: b.filter }));
  return filters;
}

/** POST /dashboard/data/rules/preview. */
export interface RulePreviewRequest {
  id: string;
  rule: WireRule;
  /** A GET /api/recommendations query string, e.g. `strategy=trending&limit=8`. */
  query: string & tags.MaxLength<2048>;
}

/** A preview's request as checked before its rule is (app/rules.ts validates the rule against the shop's catalog); throws invalid_rule. */
export function rulePreviewBody(input: unknown): { id: string; rule: unknown; query: string } {
  const body = input as { id?: unknown; rule?: unknown; query?: unknown } | null;
  if (body === null || typeof body !== 'object' || typeof body.id !== 'string' || typeof body.query !== 'string' || body.query.length > 2048) {
    throw new AppError('invalid_rule', 'a preview is {"id": string, "rule": {…}, "query": "strategy=…&limit=…"}', [{ pointer: '', detail: 'must be {id, rule, query}' }]);
  }
  return { id: body.id, rule: body.rule ?? {}, query: body.query.replace(/^\?/, '') };
}

/** The rule as the API shows it (pinned product ids in gid form on `platform`). */
export function ruleView(rule: Rule, platform: string): RuleView {
  const then = rule.then;
  return {
    id: rule.id,
    enabled: rule.enabled,
    ...(rule.from === undefined ? {} : { from: new Date(rule.from).toISOString() }),
    ...(rule.until === undefined ? {} : { until: new Date(rule.until).toISOString() }),
    when: structuredClone(rule.when) as RuleView['when'],
    then: {
      ...(then.pin === undefined ? {} : { pin: then.pin.map((p) => ({ productId: productGid(platform, p.productId), position: p.position })) }),
      ...(then.hide === undefined ? {} : { hide: then.hide }),
      ...(then.filter === undefined ? {} : { filter: then.filter }),
      ...(then.boost === undefined ? {} : { boost: then.boost.map((b) => ({ ...b })) }),
      ...(then.diversity === undefined ? {} : { diversity: { ...then.diversity } }),
    },
    updatedAt: new Date(rule.updatedAt).toISOString(),
  };
}
