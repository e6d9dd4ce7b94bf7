import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { easeWeights, fitEase, gramMatrix, invertSpd, topRows, type Histories, type Matrix } from '../../../src/engine/ease/solver.js';
import { referenceEase, referenceInverse } from '../../reference/matrix-inverse.js';

function histories(shoppers: readonly (readonly number[])[]): Histories {
  const starts = new Int32Array(shoppers.length + 1);
  const items: number[] = [];
  shoppers.forEach((list, s) => {
    items.push(...list);
    starts[s + 1] = items.length;
  });
  return { starts, items: Int32Array.from(items), values: new Float32Array(items.length).fill(1) };
}

function square(a: Matrix, n: number): number[][] {
  return Array.from({ length: n }, (_, i) => Array.from(a.subarray(i * n, (i + 1) * n)));
}

/** Distinct items per shopper below n. */
const shopperLists = (n: number) => fc.array(fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }), { maxLength: 30 });

describe('EASE solver', () => {
  test('When a 2×2 matrix is inverted, then the result is the hand-computed inverse', () => {
    // [[4, 2], [2, 3]]⁻¹ = 1/8 · [[3, −2], [−2, 4]]
    const a = Float64Array.from([4, 2, 2, 3]);
    expect(invertSpd(a, 2)).toBe(true);
    [0.375, -0.25, -0.25, 0.5].forEach((v, i) => expect(a[i]).toBeCloseTo(v, 12));
  });

  test('When a 3×3 matrix is inverted, then the result is the hand-computed inverse', () => {
    // [[2, −1, 0], [−1, 2, −1], [0, −1, 2]]⁻¹ = 1/4 · [[3, 2, 1], [2, 4, 2], [1, 2, 3]]
    const a = Float64Array.from([2, -1, 0, -1, 2, -1, 0, -1, 2]);
    expect(invertSpd(a, 3)).toBe(true);
    [0.75, 0.5, 0.25, 0.5, 1, 0.5, 0.25, 0.5, 0.75].forEach((v, i) => expect(a[i]).toBeCloseTo(v, 12));
  });

  test('When the matrix is not positive definite, then inverting says so', () => {
    expect(invertSpd(Float64Array.from([1, 2, 2, 1]), 2)).toBe(false);
    expect(invertSpd(Float64Array.from([0, 0, 0, 0]), 2)).toBe(false);
  });

  test('When shopper histories are random, then G + λI inverts as Gauss–Jordan does, and B matches the reference', () => {
    const cases = fc.integer({ min: 1, max: 12 }).chain((n) => fc.tuple(fc.constant(n), shopperLists(n), fc.integer({ min: 1, max: 50 })));
    fc.assert(
      fc.property(cases, ([n, shoppers, lambda]) => {
        const g = gramMatrix(n, histories(shoppers), 'double');
        const gl = square(g, n).map((row, i) => row.map((v, j) => (i === j ? v + lambda : v)));
        const inverse = Float64Array.from(gl.flat());
        expect(invertSpd(inverse, n)).toBe(true);
        const expected = referenceInverse(gl);
        square(inverse, n).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(expected[i]![j]!, 9)));
        expect(easeWeights(g, n, lambda)).toBe(true);
        const b = referenceEase(n, shoppers, lambda);
        square(g, n).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(b[i]![j]!, 9)));
      }),
      { numRuns: 200 },
    );
  });

  test('When the matrix is single precision (the refit), then B matches the double-precision reference to within 1e-5', () => {
    const cases = fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.constant(n), shopperLists(n), fc.integer({ min: 1, max: 500 })));
    fc.assert(
      fc.property(cases, ([n, shoppers, lambda]) => {
        const g = gramMatrix(n, histories(shoppers));
        expect(g).toBeInstanceOf(Float32Array);
        expect(easeWeights(g, n, lambda)).toBe(true);
        const b = referenceEase(n, shoppers, lambda);
        square(g, n).forEach((row, i) => row.forEach((v, j) => expect(Math.abs(v - b[i]![j]!)).toBeLessThan(1e-5)));
      }),
      { numRuns: 100 },
    );
  });

  test('When B is fitted, then its diagonal is zero and no row names its own item', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 15 }), shopperLists(15), fc.double({ min: 0.5, max: 100, noNaN: true }), (n, raw, lambda) => {
        const shoppers = raw.map((list) => list.filter((i) => i < n));
        const g = gramMatrix(n, histories(shoppers));
        expect(easeWeights(g, n, lambda)).toBe(true);
        for (let i = 0; i < n; i++) expect(g[i * n + i]).toBe(0);
        const rows = topRows(g, n, 4);
        for (let i = 0; i < n; i++) {
          const ids = rows.ids.subarray(i * 4, i * 4 + rows.sizes[i]!);
          expect(ids).not.toContain(i);
          const weights = rows.weights.subarray(i * 4, i * 4 + rows.sizes[i]!);
          for (let r = 1; r < weights.length; r++) expect(weights[r]!).toBeLessThanOrEqual(weights[r - 1]!);
          for (const w of weights) expect(w).toBeGreaterThan(0);
        }
        // Signed rows keep the largest magnitudes, negative weights included, as they are in B.
        const signed = topRows(g, n, 4, true);
        for (let i = 0; i < n; i++) {
          const size = signed.sizes[i]!;
          expect(signed.ids.subarray(i * 4, i * 4 + size)).not.toContain(i);
          for (let r = 0; r < size; r++) expect(signed.weights[i * 4 + r]).toBe(Math.fround(g[i * n + signed.ids[i * 4 + r]!]!));
          for (let r = 1; r < size; r++) expect(Math.abs(signed.weights[i * 4 + r]!)).toBeLessThanOrEqual(Math.abs(signed.weights[i * 4 + r - 1]!));
        }
      }),
    );
  });

  test('When a pattern is planted among random shoppers, then each planted item ranks its partners first', () => {
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 19 }), { maxLength: 4 }), { maxLength: 10 }), (noise) => {
        // Items 0, 1 and 2 are always bought together, by 30 shoppers; up to 10 noise shoppers buy
        // up to 4 random items, planted ones included.
        const planted = Array.from({ length: 30 }, () => [0, 1, 2]);
        const rows = fitEase(20, histories([...planted, ...noise]), 5, 2)!;
        for (const item of [0, 1, 2]) {
          expect([...rows.ids.subarray(item * 2, item * 2 + rows.sizes[item]!)].sort()).toEqual([0, 1, 2].filter((x) => x !== item));
        }
      }),
    );
  });
});
