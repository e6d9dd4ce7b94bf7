// A filter for one context product as a test of one catalog product at a time, on the attribute
// index: each distinct term resolved once (its posting lists and number ranges), and read at most
// once per product however often the expression repeats it. A test costs the product's own
// entries (its features, one number per range) and the expression's nodes, never the catalog.
import type { AttributeIndex } from './attribute-index.js';
import { inRange, type NumberRange, type ResolvedTerm, type TermTree } from './filter-terms.js';

/** Past this many features a term looks them up in a Set instead of scanning its list. */
const SCANNED_FEATURES = 8;

/** A resolved term as the index holds it. */
interface BoundTerm {
  /** The posting lists of its values (those some product ever held). */
  readonly features: readonly number[];
  /** The same, when there are many of them. */
  readonly lookup: ReadonlySet<number> | undefined;
  /** Its attribute's number column (undefined: no ranges, or no product has a number for it). */
  readonly column: Float64Array | undefined;
  readonly ranges: readonly NumberRange[];
  readonly negated: boolean;
}

export class CandidateTest {
  readonly #terms: readonly BoundTerm[];
  /** Per term: the test its value was last read in, and that value (1 true, 0 false). */
  readonly #readIn: Float64Array;
  readonly #value: Uint8Array;
  #test = 0;
  /** The features of the product under test: #pool[#from … #to − 1]. */
  #pool = new Int32Array(0);
  #from = 0;
  #to = 0;

  /** Valid until the index changes. */
  constructor(
    readonly tree: TermTree,
    terms: readonly ResolvedTerm[],
    readonly index: AttributeIndex,
  ) {
    this.#terms = terms.map((term) => bind(term, index));
    this.#readIn = new Float64Array(terms.length);
    this.#value = new Uint8Array(terms.length);
  }

  /** Whether the filter selects the product of dense id `id` (never one outside the catalog). */
  matches(id: number): boolean {
    const count = this.index.featureCount(id);
    if (count === 0) return false;
    this.#pool = this.index.featurePool();
    this.#from = this.index.featureStart(id);
    this.#to = this.#from + count;
    this.#test++;
    return this.#node(this.tree, id);
  }

  #node(node: TermTree, id: number): boolean {
    switch (node.kind) {
      case 'and':
        for (const operand of node.operands) if (!this.#node(operand, id)) return false;
        return true;
      case 'or':
        for (const operand of node.operands) if (this.#node(operand, id)) return true;
        return false;
      case 'not':
        return !this.#node(node.operand, id);
      case 'term': {
        const term = node.term;
        if (this.#readIn[term] === this.#test) return this.#value[term] === 1;
        const value = this.#term(this.#terms[term]!, id);
        this.#readIn[term] = this.#test;
        this.#value[term] = value ? 1 : 0;
        return value;
      }
    }
  }

  #term(term: BoundTerm, id: number): boolean {
    let holds = false;
    const pool = this.#pool;
    const features = term.features;
    if (term.lookup !== undefined) {
      for (let i = this.#from; i < this.#to && !holds; i++) holds = term.lookup.has(pool[i]!);
    } else if (features.length > 0) {
      for (let i = this.#from; i < this.#to && !holds; i++) {
        const feature = pool[i]!;
        for (let k = 0; k < features.length && !holds; k++) holds = features[k] === feature;
      }
    }
    const column = term.column;
    if (!holds && column !== undefined) {
      const value = id < column.length ? column[id]! : NaN;
      for (let i = 0; i < term.ranges.length && !holds; i++) holds = inRange(value, term.ranges[i]!);
    }
    return holds !== term.negated;
  }
}

function bind(term: ResolvedTerm, index: AttributeIndex): BoundTerm {
  const features: number[] = [];
  for (const value of term.values) {
    const feature = index.featureOf(term.attribute, value);
    if (feature !== undefined && !features.includes(feature)) features.push(feature);
  }
  return {
    features,
    lookup: features.length > SCANNED_FEATURES ? new Set(features) : undefined,
    column: term.ranges.length === 0 ? undefined : index.numbersOf(term.attribute),
    ranges: term.ranges,
    negated: term.negated,
  };
}
