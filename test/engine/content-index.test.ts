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
            if (next === undefined) (index.remove(dense), catalog.delete(dense));
            else (index.index(dense, { ...next, id: String(dense) }), catalog.set(dense, { ...next, id: String(dense) }));
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
});

function referenceFeatures(p: Product): string[] {
  return contentFeatures(p);
}
