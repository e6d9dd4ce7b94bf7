// How the rules matching one request shape its answer: the constraints the chain collects under
// (the request's own, plus each rule's filter and hide), how many candidates to collect, and the
// boosts, diversity caps and eligible pins that finishAnswer applies to them (apply-rules.ts).
import type { AnswerShape, CandidateConstraint } from '../answer-shaping.js';
import { SelectionConstraint } from '../answer-shaping.js';
import type { Catalog } from '../catalog.js';
import type { DenseSet } from '../dense-set.js';
import type { AttributeIndex } from '../filters/attribute-index.js';
import type { CompiledFilter } from '../filters/compiled-filter.js';
import { textValues } from '../filters/attributes.js';
import type { MatchSet } from '../filters/match-set.js';
import type { Selection } from '../filters/selection.js';
import type { FilterContext } from '../filters/filter-terms.js';
import type { Strategy } from '../strategy.js';
import { MAX_RULE_WINDOW, RULE_WINDOW_FACTOR, type Cap, type Pin, type RuleEffects } from './apply-rules.js';
import type { ActiveRule, RuleBook, RuleRequest } from './rule-book.js';

/** Refuses the products a rule's `hide` selects. */
export class HideConstraint implements CandidateConstraint {
  constructor(
    readonly hidden: Selection,
    readonly index: AttributeIndex,
  ) {}

  admits(id: number): boolean {
    return !this.hidden.has(id);
  }

  picked(): void {}

  narrow(products: MatchSet | undefined): MatchSet {
    return (products ?? this.index.present().copy()).andNot(this.hidden.set());
  }
}

export interface RulePlan {
  /** The rules applied, in composition (id) order. */
  readonly rules: readonly ActiveRule[];
  readonly constraints: readonly CandidateConstraint[];
  /** Candidates to collect. */
  readonly window: number;
  /** Organic items the answer keeps (its limit less its pins). */
  readonly organic: number;
  readonly effects: RuleEffects;
}

export interface PlanInput {
  readonly book: RuleBook;
  readonly index: AttributeIndex;
  readonly catalog: Catalog;
  readonly strategy: Strategy;
  readonly request: RuleRequest & { readonly limit: number };
  /** The request's context products (one, a cart's, none) and their dense ids, aligned. */
  readonly context: FilterContext;
  readonly contextDense: readonly number[];
  readonly now: number;
  readonly shape: AnswerShape;
  /** What the answer may never return (context, exclude, dismissals …): pins obey it; eligible pins are added to it. */
  readonly blocked: DenseSet;
}

/** The plan for the request's matching rules; undefined when none matches (the plain path). */
export function planRules(input: PlanInput, scratch: ActiveRule[] = []): RulePlan | undefined {
  const { book, index, catalog, context, request } = input;
  book.matching(input.strategy, request, context, input.contextDense, index, input.now, scratch);
  if (scratch.length === 0) return undefined;
  const rules = scratch.slice();
  const constraints: CandidateConstraint[] = [...input.shape.constraints];
  const boosts: { tests: ((id: number) => boolean)[]; testOf: number[]; factors: number[] } = { tests: [], testOf: [], factors: [] };
  const caps: Cap[] = [];
  const pins: Pin[] = [];
  const pinned = new Set<number>();
  // One selection per distinct filter (the rule book gives rules holding the same text the same
  // CompiledFilter), one constraint per selection and kind, one test per selection for the boosts:
  // rules repeating a filter cost what one does (a filter kept twice keeps what it keeps once;
  // each boost still multiplies).
  const selections = new Map<CompiledFilter, { selection: Selection; kept: boolean; hidden: boolean; test: number }>();
  const select = (filter: CompiledFilter) => {
    let entry = selections.get(filter);
    if (entry === undefined) selections.set(filter, (entry = { selection: filter.select(index, context), kept: false, hidden: false, test: -1 }));
    return entry;
  };
  for (const active of rules) {
    if (active.filter !== undefined) {
      const entry = select(active.filter);
      if (!entry.kept) constraints.push(new SelectionConstraint(entry.selection));
      entry.kept = true;
    }
    if (active.hide !== undefined) {
      const entry = select(active.hide);
      if (!entry.hidden) constraints.push(new HideConstraint(entry.selection, index));
      entry.hidden = true;
    }
    for (const boost of active.boosts) {
      const entry = select(boost.filter);
      if (entry.test < 0) {
        const selection = entry.selection;
        entry.test = boosts.tests.push((id) => selection.has(id)) - 1;
      }
      boosts.testOf.push(entry.test);
      boosts.factors.push(boost.factor);
    }
    const diversity = active.rule.then.diversity;
    if (diversity !== undefined) {
      caps.push({ max: diversity.max, valueOf: (id) => { const product = catalog.product(id); return product === undefined ? undefined : textValues(product, diversity.by)[0]; } });
    }
    for (const pin of active.rule.then.pin ?? []) {
      if (pin.position > request.limit) continue;
      const id = catalog.denseOf(pin.productId);
      if (id === undefined || pinned.has(id) || input.blocked.has(id) || !catalog.isAvailable(id)) continue;
      if (input.shape.selection !== undefined && !input.shape.selection.has(id)) continue;
      pinned.add(id);
      pins.push({ id, position: pin.position, ruleId: active.rule.id });
    }
  }
  for (const id of pinned) input.blocked.add(id);
  const organic = Math.max(0, request.limit - pins.length);
  const window = boosts.factors.length > 0 || caps.length > 0 ? Math.min(Math.max(organic * RULE_WINDOW_FACTOR, organic), MAX_RULE_WINDOW) : organic;
  return { rules, constraints, window, organic, effects: { boosts, caps, pins } };
}
