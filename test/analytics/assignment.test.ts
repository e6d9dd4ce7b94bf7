// Sticky assignment over 10,000 synthetic shoppers: each always gets the same variant, and the
// variants' shares of shoppers are the configured ones within a tolerance.
import { describe, expect, test } from 'vitest';
import { assignVariant } from '../../src/analytics/assignment.js';

const SHOPPERS = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? `sess_${i.toString(36)}_${(i * 7919) % 10007}` : `customer-${i}`));

function shareCounts(experiment: number, shares: number[]): number[] {
  const counts = shares.map(() => 0);
  for (const shopper of SHOPPERS) counts[assignVariant(experiment, shopper, shares) - 1]!++;
  return counts;
}

describe('assignment', () => {
  test.each([
    [1, [50, 50]],
    [2, [90, 10]],
    [3, [20, 30, 50]],
    [4, [25, 25, 25, 25]],
  ])('When 10,000 shoppers enter experiment %i with shares %j, then each variant gets its share within 2.5 points', (experiment, shares) => {
    const counts = shareCounts(experiment, shares);
    counts.forEach((count, v) => expect(Math.abs((count / SHOPPERS.length) * 100 - shares[v]!)).toBeLessThan(2.5));
  });

  test('When the same shoppers ask again (another process, after a restart), then every one gets the same variant', () => {
    const first = SHOPPERS.map((s) => assignVariant(7, s, [50, 50]));
    const again = SHOPPERS.map((s) => assignVariant(7, s, [50, 50]));
    expect(again).toEqual(first);
  });

  test('When two experiments split the same shoppers, then their assignments are independent', () => {
    let same = 0;
    for (const shopper of SHOPPERS) if (assignVariant(1, shopper, [50, 50]) === assignVariant(2, shopper, [50, 50])) same++;
    expect(Math.abs(same / SHOPPERS.length - 0.5)).toBeLessThan(0.025);
  });

  test('When a variant has a share of 0, then no shopper gets it', () => {
    expect(shareCounts(5, [0, 100])[0]).toBe(0);
    expect(shareCounts(5, [100, 0])[1]).toBe(0);
  });
});
