// A parsed filter checked against a shop's attributes (unknown attributes and values of the wrong
// kind are errors at their position) and evaluated on its AttributeIndex.
// A filter with no relative term selects the same set for every request: that set is kept until
// the index changes. A relative one (same:, different:, 0.5x..2x) depends on the request's context
// product: an answer tests its candidates one by one (RelativeSelection) and makes the filter's set
// for that context product only when it asks for every selected product at once.
import type { AttributeIndex } from './attribute-index.js';
import { BUILT_IN_ATTRIBUTES } from './attributes.js';
import { CandidateTest } from './candidate-test.js';
import { formatFilter, type FilterError, type FilterExpression } from './filter-syntax.js';
import { NO_CONTEXT, numberTerms, resolveTerm, type FilterContext, type ResolvedTerm, type TermExpression, type TermKind, type TermTree } from './filter-terms.js';
import { MatchSet } from './match-set.js';
import { RelativeSelection } from './relative-selection.js';
import type { Selection } from './selection.js';

const BUILT_IN_LIST = Object.keys(BUILT_IN_ATTRIBUTES).join(', ');

export class CompiledFilter {
  #selected: { version: number; set: MatchSet } | undefined;
  /** The expression over its distinct terms (filter-terms.ts). */
  readonly #tree: TermTree;
  readonly #terms: readonly TermExpression[];

  /** Use compileFilter. */
  constructor(
    readonly expression: FilterExpression,
    /** The canonical text (formatFilter): equal for filters that select the same products. */
    readonly text: string,
    /** Whether it names the context product (same:, different:, a relative range). */
    readonly relative: boolean,
    readonly kinds: ReadonlyMap<string, TermKind>,
  ) {
    const { tree, terms } = numberTerms(expression);
    this.#tree = tree;
    this.#terms = terms;
  }

  /**
   * What it selects for a request whose context product is `context` (relative terms select
   * nothing without one), for the current state of `index`: valid until the index changes. A
   * filter without relative terms answers with its kept set; a relative one tests products as
   * they are asked about (RelativeSelection).
   */
  select(index: AttributeIndex, context: FilterContext): Selection {
    if (this.relative) return new RelativeSelection(this, index, context);
    const selected = this.#selected;
    if (selected !== undefined && selected.version === index.version && selected.set.size === index.size) return selected.set;
    const set = this.evaluate(index, NO_CONTEXT);
    this.#selected = { version: index.version, set };
    return set;
  }

  /** Whether it selects the catalog product of dense id `id` for context `context`: one test, never the catalog. */
  matches(index: AttributeIndex, context: FilterContext, id: number): boolean {
    return this.relative ? this.test(index, context).matches(id) : this.select(index, NO_CONTEXT).has(id);
  }

  /** A test of one product at a time for context `context` (valid until the index changes). */
  test(index: AttributeIndex, context: FilterContext): CandidateTest {
    return new CandidateTest(this.#tree, this.#resolve(context), index);
  }

  /**
   * Every catalog product it selects for context `context`, as a new set: a pass over the set's
   * words (one per 32 dense ids) per node of the expression, and the posting lists of each
   * distinct term once.
   */
  evaluate(index: AttributeIndex, context: FilterContext): MatchSet {
    const terms = this.#resolve(context);
    const sets: (MatchSet | undefined)[] = terms.map(() => undefined);
    /** The term's set, shared: never modify it. */
    const termSet = (term: number): MatchSet => (sets[term] ??= termSetOf(terms[term]!, index));
    /** The node's set, read only (a term's shared set is not copied). */
    const read = (node: TermTree): MatchSet => (node.kind === 'term' ? termSet(node.term) : owned(node));
    /** The node's set, the caller's to modify. */
    const owned = (node: TermTree): MatchSet => {
      switch (node.kind) {
        case 'and': {
          const set = owned(node.operands[0]!);
          for (let i = 1; i < node.operands.length; i++) set.and(read(node.operands[i]!));
          return set;
        }
        case 'or': {
          const set = owned(node.operands[0]!);
          for (let i = 1; i < node.operands.length; i++) set.or(read(node.operands[i]!));
          return set;
        }
        case 'not':
          return index.present().copy().andNot(read(node.operand));
        case 'term':
          return termSet(node.term).copy();
      }
    };
    return owned(this.#tree);
  }

  #resolve(context: FilterContext): ResolvedTerm[] {
    return this.#terms.map((term) => resolveTerm(term, this.kinds.get(term.attribute)!, context));
  }
}

/** The catalog products in a resolved term. */
function termSetOf(term: ResolvedTerm, index: AttributeIndex): MatchSet {
  const set = new MatchSet(index.size);
  for (const value of term.values) index.addHolding(term.attribute, value, set);
  for (const r of term.ranges) index.addBetween(term.attribute, r.low, r.lowIncluded, r.high, r.highIncluded, set);
  return term.negated ? index.present().copy().andNot(set) : set;
}

class CompileFailure {
  constructor(readonly error: FilterError) {}
}

function fail(position: number, expected: string, detail: string): never {
  throw new CompileFailure({ position, expected, detail: `${detail} at position ${position}` });
}

function kindOf(attribute: string, position: number, index: AttributeIndex): TermKind {
  const builtIn = BUILT_IN_ATTRIBUTES[attribute];
  if (builtIn !== undefined && Object.hasOwn(BUILT_IN_ATTRIBUTES, attribute)) return builtIn;
  if (index.hasCustom(attribute)) return 'custom';
  return fail(position, `an attribute (${BUILT_IN_LIST}, or a custom attribute of the catalog)`, `unknown attribute '${attribute.slice(0, 64)}'`);
}

function check(node: FilterExpression, index: AttributeIndex, kinds: Map<string, TermKind>): boolean {
  switch (node.kind) {
    case 'and':
    case 'or':
    {
      const left = check(node.left, index, kinds);
      return check(node.right, index, kinds) || left;
    }
    case 'not':
      return check(node.operand, index, kinds);
  }
  const kind = kindOf(node.attribute, node.kind === 'same' || node.kind === 'different' ? node.position + node.kind.length + 1 : node.position, index);
  kinds.set(node.attribute, kind);
  if (node.kind === 'equals') {
    if (kind === 'number' && !/^-?\d+(\.\d+)?$/.test(node.value)) fail(node.position, 'a number', `${node.attribute} holds numbers, not '${node.value.slice(0, 40)}'`);
    if (kind === 'boolean' && node.value !== 'true' && node.value !== 'false') fail(node.position, 'true or false', `${node.attribute} is true or false, not '${node.value.slice(0, 40)}'`);
    return false;
  }
  if (node.kind === 'compare' || node.kind === 'range' || node.kind === 'relativeRange') {
    if (kind !== 'number' && kind !== 'custom') fail(node.position, 'a numeric attribute (price, compareAtPrice or a custom number)', `${node.attribute} does not hold numbers`);
    if (node.kind === 'range' && node.low > node.high) fail(node.position, 'a range whose low end is at most its high end', `${node.attribute}:${node.low}..${node.high} is empty`);
    if (node.kind === 'relativeRange' && node.low > node.high) fail(node.position, 'a range whose low factor is at most its high factor', `${node.attribute}:${node.low}x..${node.high}x is empty`);
    return node.kind === 'relativeRange';
  }
  return true; // same: / different:
}

/**
 * The filter compiled for a shop whose attributes `index` holds, or the first error: an attribute
 * no product has (custom attributes exist while some catalog product has them), a value of the
 * wrong kind. The result holds until index.namesVersion changes.
 */
export function compileFilter(expression: FilterExpression, index: AttributeIndex): { ok: true; filter: CompiledFilter } | { ok: false; error: FilterError } {
  const kinds = new Map<string, TermKind>();
  try {
    const relative = check(expression, index, kinds);
    return { ok: true, filter: new CompiledFilter(expression, formatFilter(expression), relative, kinds) };
  } catch (failure) {
    if (failure instanceof CompileFailure) return { ok: false, error: failure.error };
    throw failure;
  }
}
