import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ContentIndex, contentFeatures } from '../../src/engine/content-index.js';
import type { Product } from '../../src/engine/product.js';
import { referenceContentNeighbors } from '../reference/content-similarity.js';
import { product } from './fixtures.js';

const byId = (a: number, b: number) => a - b;

function neighborsOf(index: ContentIndex, dense: number): [number, number][] {
  const count = index.neighbors(dense, byId);
  const start = index.start(dense);
  return Array.from({ length: count }, (_, k) => [index.neighborIds[start + k]!, index.neighborScores[start + k]!]);
}

/**
 * The same neighbours, each with the reference score (stored as float32: to 5 digits), best
 * first. Scores equal up to rounding (the same shared features summed in another order) may
 * come in either order.
 */
function expectSameNeighbors(actual: [number, number][], expected: [number, number][]): void {
  expect(actual.map(([id]) => id).sort(byId)).toEqual(expected.map(([id]) => id).sort(byId));
  const reference = new Map(expected);
  for (const [id, score] of actual) expect(score).toBeCloseTo(reference.get(id)!, 5);
  for (let k = 1; k < actual.length; k++) expect(actual[k]![1]).toBeLessThanOrEqual(actual[k - 1]![1] + 1e-6);
}

const word = fc.constantFrom('red', 'blue', 'mug', 'plate', 'enamel', 'velvet', 'lamp', 'brass', 'oak', 'cup');
const randomProduct = (id: number) =>
  fc.record({
    title: fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
    vendor: fc.option(fc.constantFrom('Camp Co', 'Lounge', 'Oakery'), { nil: null }),
    productType: fc.option(fc.constantFrom('Mug', 'Plate', 'Lamp'), { nil: null }),
    tags: fc.array(word, { maxLength: 2 }),
    collections: fc.array(fc.constantFrom('kitchen', 'living', 'sale'), { maxLength: 2 }),
    price: fc.option(fc.constantFrom('5.00', '12.00', '12.50', '90.00'), { nil: null }),
  }).map((fields): Product => product(String(id), fields));

describe('ContentIndex', () => {
  test('When a catalog is indexed, then every product gets the reference neighbours: cosine of IDF vectors, ties by id', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 25 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => randomProduct(i)))), (products) => {
        const index = new ContentIndex();
        const catalog = new Map<number, Product>();
        products.forEach((p, dense) => (index.index(dense, p), catalog.set(dense, p)));
        for (const dense of catalog.keys()) expectSameNeighbors(neighborsOf(index, dense), referenceContentNeighbors(catalog, dense, byId));
      }),
      { numRuns: 60 },
    );
  });

  test('When a product changes or leaves, then every product sharing a feature with it follows at once', () => {
    fc.assert(
      fc.property(
        fc.tuple(...Array.from({ length: 12 }, (_, i) => randomProduct(i))),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.option(randomProduct(0), { nil: undefined })), { minLength: 1, maxLength: 8 }),
        (products, changes) => {
          const index = new ContentIndex();
          const catalog = new Map<number, Product>();
          products.forEach((p, dense) => (index.index(dense, p), catalog.set(dense, p)));
          for (const dense of catalog.keys()) neighborsOf(index, dense); // all computed
          for (const [dense, next] of changes) {
            const before = catalog.get(dense);
            // Indexed again with the same features: nothing changed, and every kept list stands as it was.
            const unchanged = before !== undefined && next !== undefined && sameFeatures(before, next);
            if (next === undefined) (index.remove(dense), catalog.delete(dense));
            else (index.index(dense, { ...next, id: String(dense) }), catalog.set(dense, { ...next, id: String(dense) }));
            if (unchanged) continue;
            const touched = new Set([...(before ? referenceFeatures(before) : []), ...(next ? referenceFeatures(next) : [])]);
            for (const [other, p] of catalog) {
              if (other !== dense && !referenceFeatures(p).some((f) => touched.has(f))) continue;
              const expected = referenceContentNeighbors(catalog, other, byId);
              // A list recomputed after the change is exact; only products sharing nothing may keep an older one.
              expectSameNeighbors(neighborsOf(index, other), expected);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('When stale lists are precomputed, then later requests compute nothing and answer the same', () => {
    const index = new ContentIndex();
    const items = [product('a', { title: 'Red Mug' }), product('b', { title: 'Blue Mug' }), product('c', { title: 'Brass Lamp' })];
    items.forEach((p, dense) => index.index(dense, p));
    expect(index.precompute(10, byId)).toBe(3);
    expect(index.precompute(10, byId)).toBe(0);
    expect(neighborsOf(index, 0).map(([id]) => id)).toEqual([1, 2]); // the mug, then the lamp (same price band)
  });
  test('When lists were computed at other moments of a catalog load, then after refreshAll every list is what an index built at once holds, exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 12, max: 30 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => randomProduct(i)))),
        fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 30, maxLength: 30 }),
        (products, precomputes) => {
          // One index precomputes a few lists after each product (a warmer between log entries);
          // the other is given the whole catalog first. Lists computed before the last products
          // came have the IDF of a smaller catalog (within the 10 % drift they are kept).
          const interleaved = new ContentIndex();
          const atOnce = new ContentIndex();
          products.forEach((p, dense) => {
            interleaved.index(dense, p);
            interleaved.precompute(precomputes[dense]!, byId);
            atOnce.index(dense, p);
          });
          while (atOnce.precompute(100, byId) > 0);
          expect(atOnce.exact).toBe(true);
          interleaved.refreshAll();
          while (interleaved.precompute(3, byId) > 0);
          expect(interleaved.exact).toBe(true);
          for (let dense = 0; dense < products.length; dense++) expect(neighborsOf(interleaved, dense)).toEqual(neighborsOf(atOnce, dense));
        },
      ),
      { numRuns: 60 },
    );
  });

  test('When a product is added after every list was computed, then the index is no longer exact until its lists are refreshed', () => {
    const index = new ContentIndex();
    for (let i = 0; i < 20; i++) index.index(i, product(String(i), { title: i % 2 === 0 ? 'red mug' : 'blue plate', tags: i % 3 === 0 ? ['sale'] : [] }));
    while (index.precompute(100, byId) > 0);
    expect(index.exact).toBe(true);
    const before = neighborsOf(index, 1);
    index.index(20, product('20', { title: 'brass lamp', price: '90.00' })); // shares nothing with the others: their lists are kept (5 % drift)
    expect(index.precompute(100, byId)).toBe(1);
    expect(index.exact).toBe(false);
    expect(neighborsOf(index, 1)).toEqual(before);
    index.refreshAll();
    while (index.precompute(100, byId) > 0);
    expect(index.exact).toBe(true);
    // The same neighbours, scored with the IDF of 21 products.
    const after = neighborsOf(index, 1);
    expect(after.map(([id]) => id)).toEqual(before.map(([id]) => id));
    expect(after.map(([, score]) => score)).not.toEqual(before.map(([, score]) => score));
  });
});

function referenceFeatures(p: Product): string[] {
  return contentFeatures(p);
}

function sameFeatures(a: Product, b: Product): boolean {
  const [x, y] = [referenceFeatures(a).sort(), referenceFeatures(b).sort()];
  return x.length === y.length && x.every((f, k) => f === y[k]);
}
