// A relative filter's selection for one answer: the candidates the answer asks about are tested one
// by one (CandidateTest: their own entries in the attribute index), the same candidate twice in a
// row answered from memory (every rule's constraint asks about a candidate in turn). Past
// TESTS_BEFORE_SET tests, or when the answer asks for every selected product at once, the
// filter's set for this context product (or cart) is made and kept by the index until it changes (the shop's
// next answers about this context read it too). So an answer's cost for the filter is at
// most TESTS_BEFORE_SET tests, and that set once per context and catalog version: one
// pass over its words (a 32nd of the catalog) per node of the expression, and the posting lists
// of each distinct term once.
import type { FilterContext } from './filter-terms.js';
import type { AttributeIndex } from './attribute-index.js';
import type { CandidateTest } from './candidate-test.js';
import type { MatchSet } from './match-set.js';
import type { Selection } from './selection.js';

/**
 * Candidates an answer tests one by one before it makes the filter's set: a few hundred, about
 * what a strategy's ranked candidates hold; past them the answer is walking far, and the set (a
 * bit test per candidate) costs less than testing each.
 */
export const TESTS_BEFORE_SET = 256;

/** What a relative selection asks of its filter (a CompiledFilter, compiled-filter.ts). */
export interface RelativeFilter {
  readonly text: string;
  /** Tests candidates one at a time against `context`. */
  test(index: AttributeIndex, context: FilterContext): CandidateTest;
  /** Every product selected for `context`. */
  evaluate(index: AttributeIndex, context: FilterContext): MatchSet;
}

export class RelativeSelection implements Selection {
  #set: MatchSet | undefined;
  #test: CandidateTest | undefined;
  #tests = 0;
  #lastId = -1;
  #last = false;
  readonly #key: string;

  /** Valid until the index changes. */
  constructor(
    readonly filter: RelativeFilter,
    readonly index: AttributeIndex,
    readonly context: FilterContext,
  ) {
    this.#key = filter.text + '\u0000' + context.map((product) => product.id).join(',');
    this.#set = index.keptSelection(this.#key);
  }

  has(id: number): boolean {
    if (this.#set !== undefined) return this.#set.has(id);
    if (id === this.#lastId) return this.#last;
    if (++this.#tests > TESTS_BEFORE_SET) return this.set().has(id);
    this.#test ??= this.filter.test(this.index, this.context);
    this.#lastId = id;
    this.#last = this.#test.matches(id);
    return this.#last;
  }

  set(): MatchSet {
    if (this.#set === undefined) {
      this.#set = this.index.keptSelection(this.#key) ?? this.filter.evaluate(this.index, this.context);
      this.index.keepSelection(this.#key, this.#set);
    }
    return this.#set;
  }
}
