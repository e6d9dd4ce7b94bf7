// The filter language's parser: examples, positioned errors, and properties (canonical text reads
// back as the same tree; any string gives a tree or a positioned error, never an exception).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatFilter, MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter, type FilterExpression } from '../../../src/engine/filters/filter-syntax.js';

/** The tree without positions (the canonical text places nodes elsewhere than the original). */
function shape(expression: FilterExpression): unknown {
  return JSON.parse(JSON.stringify(expression, (key, value: unknown) => (key === 'position' ? undefined : value)));
}

function parsed(text: string): FilterExpression {
  const result = parseFilter(text);
  if (!result.ok) throw new Error(`${text}: ${result.error.detail}`);
  return result.expression;
}

const attribute = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/).filter((a) => !['AND', 'OR', 'NOT'].includes(a));
const number = fc.oneof(fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(1e-9, 0.1, -0, 5e-324, 1e21, 1.5e300, 9999999999999999));
const factor = fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }));
const at0 = { position: fc.constant(0) };
const term: fc.Arbitrary<FilterExpression> = fc.oneof(
  fc.record({ kind: fc.constant('equals' as const), attribute, value: fc.string({ maxLength: 12 }), ...at0 }),
  fc.record({ kind: fc.constant('compare' as const), attribute, operator: fc.constantFrom('<', '<=', '>', '>=', '=', '!=' as const), value: number, ...at0 }),
  fc.record({ kind: fc.constant('range' as const), attribute, low: number, high: number, ...at0 }),
  fc.record({ kind: fc.constant('relativeRange' as const), attribute, low: factor, high: factor, ...at0 }),
  fc.record({ kind: fc.constantFrom('same' as const, 'different' as const), attribute, ...at0 }),
);
const expression = fc.letrec<{ node: FilterExpression }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    term,
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node'), ...at0 }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('node'), ...at0 }),
  ),
})).node;

describe('filter syntax', () => {
  test('When the issue\'s example is parsed, then AND binds tighter than OR, NOT applies to one term and the group is kept', () => {
    const tree = parsed('vendor:"Acme" AND price < 50 AND NOT tag:clearance AND (collection:summer OR collection:beach)');
    expect(formatFilter(tree)).toBe('(((vendor:Acme AND price < 50) AND NOT tag:clearance) AND (collection:summer OR collection:beach))');
    expect(shape(parsed('a:1 OR b:2 AND c:3'))).toEqual(shape(parsed('a:1 OR (b:2 AND c:3)')));
  });

  test('When each form of term is written, then it parses to its node', () => {
    expect(shape(parsed('price:10..50'))).toEqual({ kind: 'range', attribute: 'price', low: 10, high: 50 });
    expect(shape(parsed('price:0.5x..2x'))).toEqual({ kind: 'relativeRange', attribute: 'price', low: 0.5, high: 2 });
    expect(shape(parsed('same:vendor'))).toEqual({ kind: 'same', attribute: 'vendor' });
    expect(shape(parsed('different:productType'))).toEqual({ kind: 'different', attribute: 'productType' });
    expect(shape(parsed('compareAtPrice >= 19.99'))).toEqual({ kind: 'compare', attribute: 'compareAtPrice', operator: '>=', value: 19.99 });
    expect(shape(parsed('price!=-3'))).toEqual({ kind: 'compare', attribute: 'price', operator: '!=', value: -3 });
    expect(shape(parsed('vendor:"Say \\"hi\\" \\\\ AND"'))).toEqual({ kind: 'equals', attribute: 'vendor', value: 'Say "hi" \\ AND' });
    expect(shape(parsed('onSale:true'))).toEqual({ kind: 'equals', attribute: 'onSale', value: 'true' });
  });

  test('When a filter is malformed, then the error names the position and the expected token', () => {
    const cases: [string, number, string][] = [
      ['', 0, 'an attribute name'],
      ['vendor', 6, "':' or a comparison operator"],
      ['vendor:', 7, 'a value'],
      ['(vendor:Acme', 12, "')'"],
      ['vendor:Acme)', 11, "'AND', 'OR' or the end of the filter"],
      ['vendor:Acme AND', 15, 'an attribute name'],
      ['price < cheap', 8, 'a number'],
      ['price:10..', 10, 'a number'],
      ['price:0.5x..2', 12, 'a factor'],
      ['vendor:"Acme', 12, 'a closing'],
      ['vendor:Acme & tag:x', 12, 'an attribute, a value'],
      ['price ! 5', 6, "'!='"],
      ['NOT', 3, 'an attribute name'],
    ];
    for (const [text, position, expected] of cases) {
      const result = parseFilter(text);
      expect(result.ok, text).toBe(false);
      if (result.ok) continue;
      expect(result.error.position, text).toBe(position);
      expect(result.error.expected, text).toContain(expected);
      expect(result.error.detail, text).toContain(`at position ${position}`);
    }
  });

  test('When a filter is longer than the bound or nests deeper than the bound, then it is an error, not a deep recursion', () => {
    const long = parseFilter('tag:a OR '.repeat(60) + 'tag:a');
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error.position).toBe(MAX_FILTER_LENGTH);
    expect(parseFilter('('.repeat(MAX_FILTER_DEPTH) + 'tag:a' + ')'.repeat(MAX_FILTER_DEPTH)).ok).toBe(true);
    const deep = parseFilter('('.repeat(MAX_FILTER_DEPTH + 1) + 'tag:a' + ')'.repeat(MAX_FILTER_DEPTH + 1));
    expect(deep.ok).toBe(false);
    if (!deep.ok) expect(deep.error.position).toBe(MAX_FILTER_DEPTH);
  });

  test('When any expression is written in its canonical text, then parsing it gives the same expression and the same text', () => {
    fc.assert(
      fc.property(expression, (tree) => {
        const text = formatFilter(tree);
        fc.pre(text.length <= MAX_FILTER_LENGTH);
        const result = parseFilter(text);
        if (!result.ok) throw new Error(`${text}: ${result.error.detail}`);
        expect(shape(result.expression)).toEqual(shape(tree));
        expect(formatFilter(result.expression)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  test('When any string is parsed, then the answer is a tree or an error inside the string with what was expected, never an exception', () => {
    const alphabet = fc.constantFrom(...'abcAND OR NOT()::..<=>!"\\x0123456789 -_.'.split(''), 'AND', 'OR', 'NOT', 'price', ':', '..');
    const garbage = fc.oneof(fc.string({ maxLength: 80 }), fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join('')), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(garbage, (text) => {
        const result = parseFilter(text);
        if (result.ok) {
          expect(shape(parsed(formatFilter(result.expression)))).toEqual(shape(result.expression));
          return;
        }
        expect(result.error.position).toBeGreaterThanOrEqual(0);
        expect(result.error.position).toBeLessThanOrEqual(text.length);
        expect(result.error.expected.length).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });
});
