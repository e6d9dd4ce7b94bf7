// The last stage of an answer, between the ranked candidates of the strategy chain and the list
// returned: the constraints on which candidates it may take. A request brings its filter (only
// products it selects, backfill included) and its diversity cap; the shop's rules add theirs here.
// The pick list asks every constraint before it takes a candidate and tells each what it took.
import type { Catalog } from './catalog.js';
import { DiversityCap, checkDiversity, type Diversity } from './filters/diversity.js';
import type { FilterCache, ParsedFilter } from './filters/filter-cache.js';
import type { AttributeIndex } from './filters/attribute-index.js';
import type { FilterError } from './filters/filter-syntax.js';
import type { MatchSet } from './filters/match-set.js';
import type { Selection } from './filters/selection.js';
import type { FilterContext } from './filters/filter-terms.js';
import type { CandidateConstraint } from './candidate-constraint.js';

export type { CandidateConstraint };

/** Admits the products a filter selected. */
export class SelectionConstraint implements CandidateConstraint {
  constructor(readonly selection: Selection) {}

  admits(id: number): boolean {
    return this.selection.has(id);
  }

  picked(): void {}

  narrow(products: MatchSet | undefined): MatchSet {
    return products === undefined ? this.selection.set().copy() : products.and(this.selection.set());
  }
}

/** What a request asks of its answer beyond the strategy: both optional. */
export interface ShapingRequest {
  filter?: ParsedFilter;
  diversity?: Diversity;
}

export interface AnswerShape {
  readonly constraints: readonly CandidateConstraint[];
  /** The filter's selection, when the request has one. */
  readonly selection?: Selection;
}

/** No constraints: the answer as the chain ranks it. Shared, never modified. */
export const UNSHAPED: AnswerShape = { constraints: [] };
const UNSHAPED_OUTCOME: ShapeOutcome = { ok: true, shape: UNSHAPED };

export type ShapeOutcome = { ok: true; shape: AnswerShape } | { ok: false; parameter: 'filters' | 'diversity'; error: FilterError };

/**
 * The request's constraints for the shop, or the error of its filter (an attribute the shop does
 * not have) or diversity. `context`: the request's context products, for relative filter terms.
 */
export function shapeFor(
  parts: { readonly filters: FilterCache; readonly attributes: AttributeIndex; readonly catalog: Catalog },
  request: ShapingRequest,
  context: FilterContext,
): ShapeOutcome {
  if (request.filter === undefined && request.diversity === undefined) return UNSHAPED_OUTCOME;
  const constraints: CandidateConstraint[] = [];
  let selection: Selection | undefined;
  if (request.filter !== undefined) {
    const compiled = parts.filters.compile(request.filter);
    if (!compiled.ok) return { ok: false, parameter: 'filters', error: compiled.error };
    selection = compiled.filter.select(parts.attributes, context);
    constraints.push(new SelectionConstraint(selection));
  }
  if (request.diversity !== undefined) {
    const error = checkDiversity(request.diversity, parts.attributes);
    if (error !== undefined) return { ok: false, parameter: 'diversity', error };
    constraints.push(new DiversityCap(request.diversity, parts.catalog));
  }
  return { ok: true, shape: selection === undefined ? { constraints } : { constraints, selection } };
}
