import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { chooseSetting, pairedComparison } from '../../../src/engine/tuning/decision.js';

/** The textbook paired statistics, in doubles with plain arrays. */
function reference(candidate: number[], baseline: number[]) {
  const d = candidate.map((c, i) => c - baseline[i]!);
  const mean = d.reduce((a, b) => a + b, 0) / d.length;
  const variance = d.reduce((a, x) => a + (x - mean) ** 2, 0) / (d.length - 1);
  return { mean, standardError: Math.sqrt(variance / d.length) };
}

const scores = (length: number) => fc.array(fc.float({ min: 0, max: 1, noNaN: true }), { minLength: length, maxLength: length });

describe('pairedComparison', () => {
  test('When compared with the textbook formula on any scores, then the mean difference and its standard error agree', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }).chain((n) => fc.tuple(scores(n), scores(n))), ([a, b]) => {
        const got = pairedComparison(Float32Array.from(a), Float32Array.from(b));
        const want = reference(Array.from(Float32Array.from(a)), Array.from(Float32Array.from(b)));
        expect(got.mean).toBeCloseTo(want.mean, 9);
        expect(got.standardError).toBeCloseTo(want.standardError, 9);
      }),
    );
  });

  test('When the shoppers differ in number, then it refuses', () => {
    expect(() => pairedComparison(new Float32Array(3), new Float32Array(2))).toThrow(RangeError);
  });
});

describe('chooseSetting', () => {
  const baseline = Float32Array.from({ length: 200 }, (_, s) => (s % 5) / 5);

  test('When a setting beats the default on nearly every shopper, then it is installed', () => {
    const better = baseline.map((x) => x + 0.1);
    const choice = chooseSetting([baseline, better], 0, 2);
    expect(choice).toMatchObject({ index: 1, best: 1, decision: 'tuned' });
  });

  test('When the best setting leads by less than the margin of noise, then the default stays', () => {
    // +1 on 11 shoppers, −1 on 9: mean +0.01, standard error ~0.07
    const noisy = baseline.map((x, s) => (s < 11 ? x + 0.5 : s < 20 ? x - 0.5 : x));
    const choice = chooseSetting([baseline, noisy], 0, 2);
    expect(choice).toMatchObject({ index: 0, best: 1, decision: 'within-noise' });
    expect(choice.comparison.mean).toBeGreaterThan(0);
  });

  test('When no setting scores above the default, then the default stays', () => {
    const worse = baseline.map((x) => x * 0.5);
    expect(chooseSetting([worse, baseline, worse], 1, 2)).toMatchObject({ index: 1, best: 1, decision: 'default-best' });
  });

  test('When settings tie, then the default (else the first) counts as best', () => {
    expect(chooseSetting([baseline, baseline.slice()], 1, 2)).toMatchObject({ index: 1, decision: 'default-best' });
  });

  test('When any scores are compared, then a setting other than the default is installed only with a lead above margin × standard error', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }).chain((n) => fc.array(scores(n), { minLength: 1, maxLength: 5 })), fc.float({ min: 0, max: 4, noNaN: true }), (vectors, margin) => {
        const arrays = vectors.map((v) => Float32Array.from(v));
        const choice = chooseSetting(arrays, 0, margin);
        if (choice.index !== 0) {
          const { mean, standardError } = reference(Array.from(arrays[choice.index]!), Array.from(arrays[0]!));
          expect(mean).toBeGreaterThan(margin * standardError - 1e-12);
          expect(mean).toBeGreaterThan(0);
        }
      }),
    );
  });
});
