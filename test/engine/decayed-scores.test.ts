import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DecayedScores } from '../../src/engine/decayed-scores.js';
import { HOUR, T0 } from './fixtures.js';

const decayed = (scores: DecayedScores, id: number, now: number) => scores.raw(id) * scores.scaleAt(now);

describe('DecayedScores', () => {
  test('When no event was added, then every value and the scale are 0', () => {
    const scores = new DecayedScores(HOUR);
    expect(scores.raw(0)).toBe(0);
    expect(scores.raw(5000)).toBe(0);
    expect(scores.scaleAt(T0)).toBe(0);
    expect([...scores.positive()]).toEqual([]);
  });

  test('When one half-life passes, then the decayed value halves', () => {
    const scores = new DecayedScores(HOUR);
    scores.add(3, 6, T0);
    expect(decayed(scores, 3, T0)).toBe(6);
    expect(decayed(scores, 3, T0 + HOUR)).toBeCloseTo(3, 12);
    expect(decayed(scores, 3, T0 + 3 * HOUR)).toBeCloseTo(0.75, 12);
  });

  test('When events come at different times, then each decays from its own time', () => {
    const scores = new DecayedScores(HOUR);
    scores.add(0, 4, T0); // 1 at T0 + 2h
    scores.add(0, 1, T0 + HOUR); // 0.5 at T0 + 2h
    scores.add(0, 2, T0 + 2 * HOUR); // 2 at T0 + 2h
    expect(decayed(scores, 0, T0 + 2 * HOUR)).toBeCloseTo(3.5, 12);
  });

  test('When an event is older than the landmark, then it still decays from its own time', () => {
    const scores = new DecayedScores(HOUR);
    scores.add(0, 1, T0);
    scores.add(1, 8, T0 - 3 * HOUR); // 1 at T0
    expect(decayed(scores, 1, T0)).toBeCloseTo(1, 12);
    expect(decayed(scores, 1, T0 + HOUR)).toBeCloseTo(0.5, 12);
  });

  test('When ids beyond the initial capacity are added, then the array grows and keeps earlier values', () => {
    const scores = new DecayedScores(HOUR);
    scores.add(1, 2, T0);
    scores.add(5000, 3, T0);
    expect(scores.raw(1)).toBe(2);
    expect(scores.raw(5000)).toBe(3);
    expect([...scores.positive()]).toEqual([1, 5000]);
  });

  test('When the same events arrive in any order, then the decayed values are the same', () => {
    const eventArb = fc.record({
      id: fc.integer({ min: 0, max: 9 }),
      weight: fc.integer({ min: 1, max: 6 }),
      t: fc.integer({ min: T0 - 100 * HOUR, max: T0 + 100 * HOUR }),
    });
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 30 }).chain((events) => fc.tuple(fc.constant(events), fc.shuffledSubarray(events, { minLength: events.length, maxLength: events.length }))), ([events, shuffled]) => {
        const a = new DecayedScores(10 * HOUR);
        const b = new DecayedScores(10 * HOUR);
        for (const e of events) a.add(e.id, e.weight, e.t);
        for (const e of shuffled) b.add(e.id, e.weight, e.t);
        const now = T0 + 100 * HOUR;
        for (let id = 0; id < 10; id++) {
          const va = decayed(a, id, now);
          const vb = decayed(b, id, now);
          expect(Math.abs(va - vb)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(va)));
        }
      }),
      { numRuns: 200 },
    );
  });

  test('When time passes without events, then the ranking of raw values does not change', () => {
    const scores = new DecayedScores(HOUR);
    scores.add(0, 6, T0);
    scores.add(1, 1, T0 + 2 * HOUR);
    const rawBefore = [scores.raw(0), scores.raw(1)];
    scores.scaleAt(T0 + 1000 * HOUR);
    expect([scores.raw(0), scores.raw(1)]).toEqual(rawBefore);
    expect(scores.raw(0)).toBeGreaterThan(scores.raw(1));
  });

  test('When an event comes after a very long time, then values are rebased and keep their ranking and decayed values', () => {
    const scores = new DecayedScores(HOUR);
    scores.add(0, 6, T0);
    scores.add(1, 4, T0 + 100 * HOUR);
    scores.add(2, 1, T0 + 100 * HOUR);
    const late = T0 + 700 * HOUR; // 700 half-lives after the landmark: past the rebase threshold of 600
    scores.add(3, 1, late);

    // Without a rebase the stored value of id 3 would be 2^700; after it, the landmark is `late`.
    expect(scores.raw(3)).toBe(1);
    expect(scores.scaleAt(late)).toBe(1);
    const expected = [6 * 2 ** -700, 4 * 2 ** -600, 2 ** -600, 1];
    for (let id = 0; id < 4; id++) {
      expect(Math.abs(decayed(scores, id, late) / expected[id]! - 1)).toBeLessThan(1e-9);
    }
    expect(scores.raw(1)).toBeGreaterThan(scores.raw(2));
    expect(scores.raw(2)).toBeGreaterThan(scores.raw(0));
    expect(scores.raw(3)).toBeGreaterThan(scores.raw(1));

    // Adding more after the rebase still sums correctly.
    scores.add(1, 4, late);
    expect(decayed(scores, 1, late + HOUR)).toBeCloseTo((4 + 4 * 2 ** -600) / 2, 12);
  });
});
