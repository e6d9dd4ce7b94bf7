// A compiled filter's terms: the expression as a tree over its distinct terms (terms of the same
// canonical text share one number, so a term the expression repeats is read once), and a term
// resolved for one context product into what the attribute index holds: text values of an
// attribute and ranges of its numbers. The filter's set (compiled-filter.ts) and its test of one
// candidate (candidate-test.ts) both read a term through its resolution, so they select alike.
import type { Product } from '../product.js';
import { type AttributeKind, numberValue, textValues } from './attributes.js';
import { formatFilter, type ComparisonOperator, type FilterExpression } from './filter-syntax.js';

/** 'custom': a catalog product's own attribute, text or number. */
export type TermKind = AttributeKind | 'custom';

/** A leaf of the expression: anything but AND, OR and NOT. */
export type TermExpression = Exclude<FilterExpression, { readonly kind: 'and' | 'or' | 'not' }>;

export type TermTree =
  /** Two or more operands, none repeated (AND of ANDs and OR of ORs flattened into one). */
  | { readonly kind: 'and' | 'or'; readonly operands: readonly TermTree[] }
  | { readonly kind: 'not'; readonly operand: TermTree }
  /** The index of the term in the filter's distinct terms. */
  | { readonly kind: 'term'; readonly term: number };

/**
 * The expression as a tree over its distinct terms, and those terms in order of first appearance.
 * The tree selects what the expression does: nested ANDs (ORs) are one AND (OR), and an operand
 * repeated in one is kept once (x AND x is x), so a repetitive expression is as cheap as its
 * distinct parts.
 */
export function numberTerms(expression: FilterExpression): { tree: TermTree; terms: TermExpression[] } {
  const terms: TermExpression[] = [];
  const numbers = new Map<string, number>();
  /** The node and a key equal for equal nodes. */
  const walk = (node: FilterExpression): { tree: TermTree; key: string } => {
    switch (node.kind) {
      case 'and':
      case 'or': {
        const operands: TermTree[] = [];
        const keys: string[] = [];
        const add = (part: FilterExpression): void => {
          if (part.kind === node.kind) {
            add(part.left);
            add(part.right);
            return;
          }
          const { tree, key } = walk(part);
          if (keys.includes(key)) return;
          operands.push(tree);
          keys.push(key);
        };
        add(node);
        if (operands.length === 1) return { tree: operands[0]!, key: keys[0]! };
        return { tree: { kind: node.kind, operands }, key: `${node.kind}(${keys.join(',')})` };
      }
      case 'not': {
        const { tree, key } = walk(node.operand);
        return { tree: { kind: 'not', operand: tree }, key: `not ${key}` };
      }
    }
    const text = formatFilter(node);
    let term = numbers.get(text);
    if (term === undefined) {
      term = terms.push(node) - 1;
      numbers.set(text, term);
    }
    return { tree: { kind: 'term', term }, key: String(term) };
  };
  return { tree: walk(expression).tree, terms };
}

export interface NumberRange {
  readonly low: number;
  readonly lowIncluded: boolean;
  readonly high: number;
  readonly highIncluded: boolean;
}

/**
 * A term for one context product: the catalog products holding one of `values` for `attribute`
 * (text form) or whose number for it lies in one of `ranges`; `negated`: the catalog products
 * outside those.
 */
export interface ResolvedTerm {
  readonly attribute: string;
  readonly values: readonly string[];
  readonly ranges: readonly NumberRange[];
  readonly negated: boolean;
}

const range = (low: number, lowIncluded: boolean, high: number, highIncluded: boolean): NumberRange => ({ low, lowIncluded, high, highIncluded });

/** Whether `value` lies in the range (NaN, a product without a number, never does). */
export function inRange(value: number, r: NumberRange): boolean {
  return (r.lowIncluded ? value >= r.low : value > r.low) && (r.highIncluded ? value <= r.high : value < r.high);
}

/** The numbers that compare so with `value`. */
function comparison(operator: ComparisonOperator, value: number): NumberRange[] {
  switch (operator) {
    case '<': return [range(-Infinity, true, value, false)];
    case '<=': return [range(-Infinity, true, value, true)];
    case '>': return [range(value, false, Infinity, true)];
    case '>=': return [range(value, true, Infinity, true)];
    case '=': return [range(value, true, value, true)];
    case '!=': return [range(-Infinity, true, value, false), range(value, false, Infinity, true)];
  }
}

/** A custom attribute's value as indexed: a number by its canonical text (`weight:5.0` finds 5). */
function customText(value: string): string {
  return /^-?\d+(\.\d+)?$/.test(value) ? String(Number(value)) : value;
}

/**
 * The products a request's relative terms are relative to: none, its context product, or its cart.
 * A relative term holds when it holds for one of them at least: `same:vendor` selects the products
 * sharing a vendor with any of them, `different:vendor` those sharing it with none, `price:0.5x..2x`
 * those within that range of any one's price.
 */
export type FilterContext = readonly Product[];

export const NO_CONTEXT: FilterContext = Object.freeze([]);

/**
 * `term` (its attribute of kind `kind`) for a request whose context products are `context`:
 * relative terms select nothing without one (`different:` included).
 */
export function resolveTerm(term: TermExpression, kind: TermKind, context: FilterContext): ResolvedTerm {
  const attribute = term.attribute;
  const of = (values: readonly string[], ranges: readonly NumberRange[], negated = false): ResolvedTerm => ({ attribute, values, ranges, negated });
  switch (term.kind) {
    case 'equals': {
      if (kind === 'number') {
        const value = Number(term.value);
        return of([], [range(value, true, value, true)]);
      }
      // A custom number is indexed by its canonical text: `weight:5.0` finds 5 too.
      const canonical = kind === 'custom' ? customText(term.value) : term.value;
      return of(canonical === term.value ? [term.value] : [term.value, canonical], []);
    }
    case 'compare':
      return of([], comparison(term.operator, term.value));
    case 'range':
      return of([], [range(term.low, true, term.high, true)]);
    case 'relativeRange':
      return of([], contextNumbers(context, attribute).map((base) => range(term.low * base, true, term.high * base, true)));
    case 'same':
    case 'different': {
      if (context.length === 0) return of([], []);
      const negated = term.kind === 'different';
      if (kind === 'number') return of([], contextNumbers(context, attribute).map((value) => range(value, true, value, true)), negated);
      if (context.length === 1) return of(textValues(context[0]!, attribute), [], negated);
      return of([...new Set(context.flatMap((product) => textValues(product, attribute)))], [], negated);
    }
  }
}

/** The context products' numbers for `attribute` (those without one left out). */
function contextNumbers(context: FilterContext, attribute: string): number[] {
  const values: number[] = [];
  for (const product of context) {
    const value = numberValue(product, attribute);
    if (value === value) values.push(value);
  }
  return values;
}
