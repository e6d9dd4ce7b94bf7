// Reference for engine/rules: the answer a request gets from its ranked candidates and the shop's
// rules, on plain arrays, one step at a time as docs/api.md states them: match (window, strategy,
// widget, collection, context product), pins chosen, candidates taken in chain order skipping what
// is blocked, unavailable, taken, pinned, outside a rule's filter or inside its hide, up to the
// window; boosts re-rank within each strategy's run; diversity caps; cut; pins placed.
import { parseFilter, type FilterExpression } from '../../src/engine/filters/filter-syntax.js';
import type { Product } from '../../src/engine/product.js';
import type { Rule } from '../../src/engine/rules/rule.js';
import type { Strategy } from '../../src/engine/strategy.js';
import { referenceCompiles, referenceMatches } from './filter.js';

export interface ReferenceCandidate {
  id: string;
  score: number;
  strategy: Strategy;
}

export interface ReferenceRequest {
  strategy: Strategy;
  limit: number;
  widgetId?: string;
  collectionId?: string;
  /** The context products: none, one, or a cart's (a rule's when.context holds when one of them satisfies it). */
  context: readonly Product[];
  /** Ids never returned (context, exclude, dismissals). */
  blocked: readonly string[];
  now: number;
}

export interface ReferenceItem {
  id: string;
  score: number;
  strategy: Strategy;
  ruleId?: string;
}

function expressionOf(text: string): FilterExpression {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(`reference: '${text}' does not parse`);
  return parsed.expression;
}

function firstValue(product: Product, attribute: string): string | undefined {
  if (attribute === 'vendor') return product.vendor ?? undefined;
  if (attribute === 'productType') return product.productType ?? undefined;
  const custom = product.attributes?.[attribute];
  return custom === undefined ? undefined : String(custom);
}

export function referenceRuleAnswer(catalog: readonly Product[], rules: readonly Rule[], candidates: readonly ReferenceCandidate[], request: ReferenceRequest): ReferenceItem[] {
  const byId = new Map(catalog.map((p) => [p.id, p]));
  const contexts = request.context.filter((c) => byId.has(c.id));
  const filtersOf = (rule: Rule) => [rule.when.context, rule.then.filter, rule.then.hide, ...(rule.then.boost ?? []).map((b) => b.filter)].filter((f): f is string => f !== undefined);
  const matching = [...rules]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .filter((rule) => rule.enabled && (rule.from === undefined || request.now >= rule.from) && (rule.until === undefined || request.now < rule.until))
    .filter((rule) => rule.when.strategies === undefined || rule.when.strategies.includes(request.strategy))
    .filter((rule) => rule.when.widgetIds === undefined || (request.widgetId !== undefined && rule.when.widgetIds.includes(request.widgetId)))
    .filter((rule) => rule.when.collectionIds === undefined || (request.collectionId !== undefined && rule.when.collectionIds.includes(request.collectionId)))
    .filter((rule) => filtersOf(rule).every((f) => referenceCompiles(expressionOf(f), catalog)))
    .filter((rule) => rule.when.context === undefined || contexts.some((c) => referenceMatches(expressionOf(rule.when.context!), c, [c])));

  if (matching.length === 0) {
    const taken: ReferenceItem[] = [];
    for (const c of candidates) {
      if (taken.length >= request.limit) break;
      const product = byId.get(c.id);
      if (product === undefined || !product.available || request.blocked.includes(c.id) || taken.some((t) => t.id === c.id)) continue;
      taken.push({ ...c });
    }
    return taken;
  }

  const pins: { id: string; position: number; ruleId: string }[] = [];
  for (const rule of matching) {
    for (const pin of rule.then.pin ?? []) {
      const product = byId.get(pin.productId);
      if (pin.position > request.limit || product === undefined || !product.available || request.blocked.includes(pin.productId) || pins.some((p) => p.id === pin.productId)) continue;
      pins.push({ id: pin.productId, position: pin.position, ruleId: rule.id });
    }
  }
  const organic = Math.max(0, request.limit - pins.length);
  const boosts = matching.flatMap((rule) => (rule.then.boost ?? []).map((b) => ({ expression: expressionOf(b.filter), factor: b.factor })));
  const caps = matching.flatMap((rule) => (rule.then.diversity === undefined ? [] : [rule.then.diversity]));
  const window = boosts.length > 0 || caps.length > 0 ? Math.min(organic * 3, 72) : organic;

  let taken: ReferenceItem[] = [];
  for (const c of candidates) {
    if (taken.length >= window) break;
    const product = byId.get(c.id);
    if (product === undefined || !product.available || request.blocked.includes(c.id) || taken.some((t) => t.id === c.id) || pins.some((p) => p.id === c.id)) continue;
    if (matching.some((rule) => rule.then.filter !== undefined && !referenceMatches(expressionOf(rule.then.filter), product, contexts))) continue;
    if (matching.some((rule) => rule.then.hide !== undefined && referenceMatches(expressionOf(rule.then.hide), product, contexts))) continue;
    taken.push({ ...c });
  }

  if (boosts.length > 0) {
    for (const item of taken) for (const boost of boosts) if (referenceMatches(boost.expression, byId.get(item.id)!, contexts)) item.score *= boost.factor;
    // Re-rank within each run of one strategy, ties in their order.
    const runs: ReferenceItem[][] = [];
    for (const item of taken) {
      const run = runs.at(-1);
      if (run !== undefined && run[0]!.strategy === item.strategy) run.push(item);
      else runs.push([item]);
    }
    taken = runs.flatMap((run) => [...run].sort((a, b) => b.score - a.score));
  }

  const kept: ReferenceItem[] = [];
  for (const item of taken) {
    const product = byId.get(item.id)!;
    const full = caps.some((cap) => {
      const value = firstValue(product, cap.by);
      return value !== undefined && kept.filter((k) => firstValue(byId.get(k.id)!, cap.by) === value).length >= cap.max;
    });
    if (!full) kept.push(item);
  }

  const answer = kept.slice(0, organic);
  const placed = pins.map((pin, order) => ({ pin, order })).sort((a, b) => a.pin.position - b.pin.position || a.order - b.order);
  let previous = -1;
  for (const { pin } of placed) {
    const at = Math.min(Math.max(pin.position - 1, previous + 1), answer.length);
    answer.splice(at, 0, { id: pin.id, score: 0, strategy: request.strategy, ruleId: pin.ruleId });
    previous = at;
  }
  return answer;
}
