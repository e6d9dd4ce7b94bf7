// The statistics behind the rates: Wilson score intervals for a proportion, Newcombe's hybrid score
// interval for a difference of two (Newcombe 1998, method 10: built from the two Wilson intervals),
// and the sample size per group a two-sided test needs to detect a difference with given power.
import type { Interval } from '../api/stats-answer.js';

export type { Interval };

/** z of a two-sided 95 % interval (and of α = 0.05). */
export const Z_95 = 1.959963984540054;
/** z of 80 % power. */
export const Z_POWER_80 = 0.8416212335729143;

/**
 * The Wilson score interval of `successes` out of `trials`. A count can exceed its base where events
 * arrive without what should come first (clicks sent without their impressions), so the interval is
 * of min(successes, trials), while `rate` is the plain ratio.
 */
export function wilson(successes: number, trials: number, z = Z_95): Interval {
  if (trials <= 0) return { rate: null, low: null, high: null };
  const p = Math.min(successes, trials) / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const center = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { rate: successes / trials, low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

export interface Difference {
  /** p2 − p1; null when either group had no trials. */
  difference: number | null;
  low: number | null;
  high: number | null;
}

/** Newcombe's interval for p2 − p1 (group 2 against group 1) from the groups' Wilson intervals. */
export function newcombe(x1: number, n1: number, x2: number, n2: number, z = Z_95): Difference {
  if (n1 <= 0 || n2 <= 0) return { difference: null, low: null, high: null };
  const a = wilson(x1, n1, z);
  const b = wilson(x2, n2, z);
  const p1 = Math.min(x1, n1) / n1;
  const p2 = Math.min(x2, n2) / n2;
  const d = p2 - p1;
  return {
    difference: d,
    low: d - Math.sqrt((p2 - b.low!) ** 2 + (a.high! - p1) ** 2),
    high: d + Math.sqrt((b.high! - p2) ** 2 + (p1 - a.low!) ** 2),
  };
}

/**
 * Trials each of two groups needs for a two-sided test at α = 0.05 to detect the difference between
 * rates p1 and p2 with 80 % power (the normal approximation with pooled variance under the null);
 * null when the rates are equal (no difference to detect).
 */
export function sampleSizePerGroup(p1: number, p2: number): number | null {
  if (p1 === p2) return null;
  const pBar = (p1 + p2) / 2;
  const root = Z_95 * Math.sqrt(2 * pBar * (1 - pBar)) + Z_POWER_80 * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  return Math.ceil((root * root) / ((p1 - p2) * (p1 - p2)));
}
