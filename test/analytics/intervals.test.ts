// Wilson and Newcombe intervals and the sample size against values computed by hand (and, for
// Newcombe, the published example of Newcombe 1998, Table II (a): 56/70 − 48/80 → 0.0524 to 0.3339).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { newcombe, sampleSizePerGroup, wilson } from '../../src/analytics/intervals.js';

describe('intervals', () => {
  test.each([
    [10, 100, 0.055229, 0.174366],
    [0, 10, 0, 0.277533],
    [50, 100, 0.403832, 0.596168],
    [1, 1, 0.206549, 1],
    [3, 4, 0.300642, 0.954413],
  ])('When %i of %i succeed, then the Wilson 95 %% interval is %f to %f', (x, n, low, high) => {
    const interval = wilson(x, n);
    expect(interval.rate).toBe(x / n);
    expect(interval.low).toBeCloseTo(low, 6);
    expect(interval.high).toBeCloseTo(high, 6);
  });

  test('When there are no trials, then the rate and its interval are null', () => {
    expect(wilson(0, 0)).toEqual({ rate: null, low: null, high: null });
    expect(newcombe(1, 0, 1, 10)).toEqual({ difference: null, low: null, high: null });
  });

  test('When 48/80 is compared with 56/70, then Newcombe’s interval is the published 0.0524 to 0.3339', () => {
    const d = newcombe(48, 80, 56, 70);
    expect(d.difference).toBeCloseTo(0.8 - 0.6, 12);
    expect(d.low).toBeCloseTo(0.052431, 6);
    expect(d.high).toBeCloseTo(0.333873, 6);
  });

  test('When rates of 10 % and 15 % are to be told apart, then each group needs 686 trials for 80 % power', () => {
    expect(sampleSizePerGroup(0.1, 0.15)).toBe(686);
    expect(sampleSizePerGroup(0.2, 0.2)).toBeNull();
  });

  test('When any counts are given, then the interval holds the rate and stays within 0 and 1', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.integer({ min: 1, max: 10_000 }), (x, n) => {
        const { low, high } = wilson(Math.min(x, n), n);
        const p = Math.min(x, n) / n;
        expect(low!).toBeGreaterThanOrEqual(0);
        expect(high!).toBeLessThanOrEqual(1);
        expect(low!).toBeLessThanOrEqual(p + 1e-12);
        expect(high!).toBeGreaterThanOrEqual(p - 1e-12);
      }),
    );
  });
});
