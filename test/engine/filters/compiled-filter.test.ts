// Compiled filters on the attribute index against the reference evaluator (test/reference/filter.ts)
// on random catalogs, random catalog edits and random expressions.
import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { AttributeIndex } from '../../../src/engine/filters/attribute-index.js';
import { PostingLists } from '../../../src/engine/posting-lists.js';
import { compileFilter } from '../../../src/engine/filters/compiled-filter.js';
import { FilterCache } from '../../../src/engine/filters/filter-cache.js';
import { TESTS_BEFORE_SET } from '../../../src/engine/filters/relative-selection.js';
import { formatFilter, parseFilter, type FilterExpression } from '../../../src/engine/filters/filter-syntax.js';
import type { Product } from '../../../src/engine/product.js';
import { referenceCompiles, referenceMatches } from '../../reference/filter.js';
import { product as catalogProduct } from '../fixtures.js';

const VENDORS = ['Acme', 'Globex', 'Initech'];
const TAGS = ['clearance', 'summer', 'new'];
const PRICES = [null, '5', '9.5', '10', '10.00', '20', '49.99', '100'];
const MATERIALS = ['cotton', 'wool', '5'];

const product = (id: number) =>
  fc.record({
    vendor: fc.constantFrom(null, ...VENDORS),
    productType: fc.constantFrom(null, 'Shirt', 'Hat'),
    tags: fc.uniqueArray(fc.constantFrom(...TAGS), { maxLength: 3 }),
    collections: fc.uniqueArray(fc.constantFrom('summer', 'beach', '42'), { maxLength: 2 }),
    price: fc.constantFrom(...PRICES),
    compareAtPrice: fc.constantFrom(...PRICES),
    available: fc.boolean(),
    material: fc.option(fc.constantFrom(...MATERIALS), { nil: undefined }),
    weight: fc.option(fc.oneof(fc.constantFrom(0, 1, 2.5, 5, 10), fc.constantFrom('heavy', '5')), { nil: undefined }),
  }).map((p): Product => {
    const attributes: Record<string, string | number> = {};
    if (p.material !== undefined) attributes.material = p.material;
    if (p.weight !== undefined) attributes.weight = p.weight;
    const { material: _material, weight: _weight, ...fields } = p;
    return catalogProduct(String(id), { ...fields, ...(Object.keys(attributes).length > 0 ? { attributes } : {}) });
  });

const ATTRIBUTES = ['vendor', 'productType', 'tag', 'collection', 'price', 'compareAtPrice', 'onSale', 'available', 'material', 'weight', 'color'];
const VALUES = [...VENDORS, ...TAGS, ...MATERIALS, 'Shirt', 'Hat', 'summer', 'beach', '42', 'true', 'false', '10', '5.0', '9.5', 'heavy', '-1'];
const NUMBERS = [0, 5, 9.5, 10, 20, 49.99, 100, -1];

const NUMERIC = ['price', 'compareAtPrice', 'weight'];
const at0 = { position: fc.constant(0) };
/** Terms that compile for most catalogs (weight and material may be missing from one)… */
const validTerm: fc.Arbitrary<FilterExpression> = fc.oneof(
  fc.record({ kind: fc.constant('equals' as const), attribute: fc.constantFrom('vendor', 'productType', 'tag', 'collection', 'material', 'weight'), value: fc.constantFrom(...VALUES), ...at0 }),
  fc.record({ kind: fc.constant('equals' as const), attribute: fc.constantFrom('onSale', 'available'), value: fc.constantFrom('true', 'false'), ...at0 }),
  fc.record({ kind: fc.constant('equals' as const), attribute: fc.constantFrom(...NUMERIC), value: fc.constantFrom('10', '9.5', '5', '10.0', '-1'), ...at0 }),
  fc.record({ kind: fc.constant('compare' as const), attribute: fc.constantFrom(...NUMERIC), operator: fc.constantFrom('<', '<=', '>', '>=', '=', '!=' as const), value: fc.constantFrom(...NUMBERS), ...at0 }),
  fc.record({ kind: fc.constant('range' as const), attribute: fc.constantFrom(...NUMERIC), low: fc.constantFrom(0, 5, 9.5), high: fc.constantFrom(10, 20, 100), ...at0 }),
  fc.record({ kind: fc.constant('relativeRange' as const), attribute: fc.constantFrom(...NUMERIC), low: fc.constantFrom(0, 0.5, 1), high: fc.constantFrom(1, 2, 1.5), ...at0 }),
  fc.record({ kind: fc.constantFrom('same' as const, 'different' as const), attribute: fc.constantFrom(...ATTRIBUTES.filter((a) => a !== 'color')), ...at0 }),
);
/** …and any term at all (unknown attributes, wrong kinds, empty ranges). */
const anyTerm: fc.Arbitrary<FilterExpression> = fc.oneof(
  fc.record({ kind: fc.constant('equals' as const), attribute: fc.constantFrom(...ATTRIBUTES), value: fc.constantFrom(...VALUES), ...at0 }),
  fc.record({ kind: fc.constant('compare' as const), attribute: fc.constantFrom(...ATTRIBUTES), operator: fc.constantFrom('<', '<=', '>', '>=', '=', '!=' as const), value: fc.constantFrom(...NUMBERS), ...at0 }),
  fc.record({ kind: fc.constant('range' as const), attribute: fc.constantFrom(...ATTRIBUTES), low: fc.constantFrom(...NUMBERS), high: fc.constantFrom(...NUMBERS), ...at0 }),
  fc.record({ kind: fc.constantFrom('same' as const, 'different' as const), attribute: fc.constantFrom(...ATTRIBUTES), ...at0 }),
);
const term = fc.oneof({ arbitrary: validTerm, weight: 12 }, { arbitrary: anyTerm, weight: 1 });

const expression: fc.Arbitrary<FilterExpression> = fc.letrec<{ node: FilterExpression }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node'), position: fc.constant(0) }),
    fc.record({ kind: fc.constant('not' as const), operand: tie('node'), position: fc.constant(0) }),
  ),
})).node;

/** An expression made of a few random parts, each used again and again (the compiled form keeps one of each). */
const repetitive: fc.Arbitrary<FilterExpression> = fc.array(expression, { minLength: 1, maxLength: 3 }).chain(
  (parts) =>
    fc.letrec<{ node: FilterExpression }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(...parts),
        fc.record({ kind: fc.constantFrom('and' as const, 'or' as const), left: tie('node'), right: tie('node'), position: fc.constant(0) }),
        fc.record({ kind: fc.constant('not' as const), operand: tie('node'), position: fc.constant(0) }),
      ),
    })).node,
);

/** A catalog built by upserts (some products replaced, some removed), as the engine sees it. */
const edits = fc.array(fc.tuple(fc.nat(11), fc.boolean()), { maxLength: 12 });

describe('compiled filters', () => {
  let compiledCount = 0;
  test('When random filters run on a random catalog, then the compiled filter selects exactly the products the reference evaluator accepts, for no context, every context product and carts of two or three', () => {
    fc.assert(
      fc.property(fc.array(product(0), { minLength: 1, maxLength: 12 }), edits, fc.array(product(0), { maxLength: 12 }), fc.oneof(expression, repetitive), (first, changes, replacements, filter) => {
        const index = new AttributeIndex();
        const catalog = new Map<number, Product>();
        first.forEach((p, dense) => {
          const withId = { ...p, id: String(dense) };
          index.index(dense, withId);
          catalog.set(dense, withId);
        });
        changes.forEach(([dense, remove], i) => {
          if (remove) {
            index.remove(dense);
            catalog.delete(dense);
          } else if (replacements[i] !== undefined) {
            const withId = { ...replacements[i]!, id: String(dense) };
            index.index(dense, withId);
            catalog.set(dense, withId);
          }
        });
        const products = [...catalog.values()];
        const compiled = compileFilter(filter, index);
        expect(compiled.ok).toBe(referenceCompiles(filter, products));
        if (!compiled.ok) return;
        compiledCount++;
        const removed = [...Array(12).keys()].filter((dense) => !catalog.has(dense));
        const carts = products.length < 2 ? [] : [[products[0]!, products[products.length - 1]!], products.slice(0, 3)];
        for (const context of [[], ...products.map((p) => [p]), ...carts]) {
          // Both forms: candidates tested one by one, and the set a walk reads.
          const tested = compiled.filter.select(index, context);
          const set = compiled.filter.select(index, context).set();
          for (const [dense, p] of catalog) {
            const expected = referenceMatches(filter, p, context);
            expect(tested.has(dense), `${formatFilter(filter)} on ${JSON.stringify(p)} with context ${context.map((c) => c.id)}`).toBe(expected);
            expect(set.has(dense), `set of ${formatFilter(filter)} on ${JSON.stringify(p)} with context ${context.map((c) => c.id)}`).toBe(expected);
          }
          for (const dense of removed) expect(tested.has(dense) || set.has(dense)).toBe(false);
          expect(set.count()).toBe(products.filter((p) => referenceMatches(filter, p, context)).length);
        }
      }),
      { numRuns: 600 },
    );
    // Most generated filters compile: the comparison above is not vacuous.
    expect(compiledCount).toBeGreaterThan(200);
  });

  test('When an answer asks a relative filter about more products than it tests one by one, then it answers from its set alike, and the set is kept for the context product', () => {
    fc.assert(
      fc.property(fc.array(product(0), { minLength: 100, maxLength: 160 }), fc.oneof(expression, repetitive), fc.nat(), (products, filter, seed) => {
        const index = new AttributeIndex();
        const catalog = products.map((p, dense) => ({ ...p, id: String(dense) }));
        catalog.forEach((p, dense) => index.index(dense, p));
        const compiled = compileFilter(filter, index);
        if (!compiled.ok || !compiled.filter.relative) return;
        const context = [catalog[seed % catalog.length]!];
        const selection = compiled.filter.select(index, context);
        // Each product asked about several times, in an order mixing repeats and jumps: past TESTS_BEFORE_SET tests.
        const asked = Array.from({ length: 3 * TESTS_BEFORE_SET }, (_, i) => (i * 37 + seed) % catalog.length);
        for (const dense of asked) expect(selection.has(dense)).toBe(referenceMatches(filter, catalog[dense]!, context));
        expect(index.keptSelection(`${compiled.filter.text}\u0000${context[0]!.id}`)).toBeDefined();
        const again = compiled.filter.select(index, context);
        for (let dense = 0; dense < catalog.length; dense++) expect(again.has(dense)).toBe(referenceMatches(filter, catalog[dense]!, context));
      }),
      { numRuns: 60 },
    );
  });

  test('When the catalog changes after a filter selected, then the next selection follows it (the kept selection is not reused)', () => {
    const index = new AttributeIndex();
    const base: Product = { id: '1', platform: 'shopify', title: 'A', handle: 'a', image: null, price: '10', compareAtPrice: null, vendor: 'Acme', productType: null, tags: [], collections: [], available: true, updatedAt: 0 };
    index.index(0, base);
    const parsed = parseFilter('vendor:Acme AND price < 20');
    if (!parsed.ok) throw new Error('parse');
    const compiled = compileFilter(parsed.expression, index);
    if (!compiled.ok) throw new Error('compile');
    expect(compiled.filter.select(index, []).has(0)).toBe(true);
    index.index(0, { ...base, price: '30' });
    expect(compiled.filter.select(index, []).has(0)).toBe(false);
    index.index(1, { ...base, id: '2' });
    expect(compiled.filter.select(index, []).has(1)).toBe(true);
    index.remove(1);
    expect(compiled.filter.select(index, []).has(1)).toBe(false);
    // A relative filter's set for a context product, kept by the index, goes with the change too.
    const relative = parseFilter('same:vendor AND price:0.5x..2x');
    if (!relative.ok) throw new Error('parse');
    const same = compileFilter(relative.expression, index);
    if (!same.ok) throw new Error('compile');
    index.index(1, { ...base, id: '2', price: '40' });
    const context = [{ ...base, id: '2', price: '40' }];
    expect(same.filter.select(index, context).set().has(0)).toBe(true);
    expect(same.filter.select(index, context).has(0)).toBe(true);
    index.index(0, { ...base, vendor: 'Other', price: '30' });
    expect(same.filter.select(index, context).has(0)).toBe(false);
    expect(same.filter.select(index, context).set().has(0)).toBe(false);
  });

  test('When a product is edited, then only the posting lists of the values that changed are touched (a removal scans its list; every product is in some of them)', () => {
    const index = new AttributeIndex();
    const base: Product = { id: '1', platform: 'shopify', title: 'A', handle: 'a', image: null, price: '10', compareAtPrice: null, vendor: 'Acme', productType: null, tags: ['x'], collections: [], available: true, updatedAt: 0 };
    for (let i = 0; i < 50; i++) index.index(i, { ...base, id: String(i) });
    const removals = vi.spyOn(PostingLists.prototype, 'remove');
    try {
      index.index(7, { ...base, id: '7', price: '12', updatedAt: 1 }); // a new price: a number column, no list
      expect(removals).not.toHaveBeenCalled();
      index.index(7, { ...base, id: '7', vendor: 'Other', updatedAt: 2 }); // the vendor's two lists only
      expect(removals).toHaveBeenCalledTimes(1);
      const vendor = parseFilter('vendor:Other');
      if (!vendor.ok) throw new Error('parse');
      const compiled = compileFilter(vendor.expression, index);
      if (!compiled.ok) throw new Error('compile');
      expect([...Array(50).keys()].filter((i) => compiled.filter.select(index, []).has(i))).toEqual([7]);
    } finally {
      removals.mockRestore();
    }
  });

  test('When a custom attribute appears or leaves the catalog, then the filter cache compiles a filter naming it again (an error exactly while it is unknown)', () => {
    const index = new AttributeIndex();
    const cache = new FilterCache(index);
    const parsed = parseFilter('material:wool');
    if (!parsed.ok) throw new Error('parse');
    const filter = { text: formatFilter(parsed.expression), expression: parsed.expression };
    const unknown = cache.compile(filter);
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error).toMatchObject({ position: 0, detail: expect.stringContaining("unknown attribute 'material'") });
    const wool: Product = { id: '1', platform: 'shopify', title: 'A', handle: 'a', image: null, price: null, compareAtPrice: null, vendor: null, productType: null, tags: [], collections: [], available: true, attributes: { material: 'wool' }, updatedAt: 0 };
    index.index(0, wool);
    const known = cache.compile(filter);
    expect(known.ok && known.filter.select(index, []).has(0)).toBe(true);
    expect(cache.compile(filter)).toBe(known);
    index.remove(0);
    expect(cache.compile(filter).ok).toBe(false);
  });

  test('When errors are of kind (text compared as a number, a boolean given a word, an empty range), then each names its position and what was expected', () => {
    const index = new AttributeIndex();
    const cases: [string, number, string][] = [
      ['available:true AND vendor < 5', 19, 'a numeric attribute'],
      ['onSale:yes', 0, 'true or false'],
      ['price:cheap', 0, 'a number'],
      ['NOT price:50..10', 4, 'a range whose low end is at most its high end'],
      ['same:colour', 5, 'an attribute'],
    ];
    for (const [text, position, expected] of cases) {
      const parsed = parseFilter(text);
      if (!parsed.ok) throw new Error(text);
      const compiled = compileFilter(parsed.expression, index);
      expect(compiled.ok, text).toBe(false);
      if (!compiled.ok) {
        expect(compiled.error.position, text).toBe(position);
        expect(compiled.error.expected, text).toContain(expected);
      }
    }
  });
});
