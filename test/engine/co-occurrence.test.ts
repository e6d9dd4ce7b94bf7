import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { groupLevel, type CoOccurrence } from '../../src/engine/co-occurrence.js';
import { ReferenceCoOccurrence } from '../reference/co-occurrence.js';
import { keyedModel } from './fixtures.js';

const DAY = 86_400_000;

/** Group adds in time order: [group key, item, days since the previous add] (≤ 3,000 days: no re-basing, tested below). */
const stream = fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 10 })), { maxLength: 300 });

function rowOf(model: CoOccurrence, item: number): [number, number][] {
  const { pairs } = model;
  return Array.from({ length: pairs.size(item) }, (_, k) => [pairs.ids[pairs.start(item) + k]!, pairs.weights[pairs.weightStart(item) + k]!]);
}

describe('CoOccurrence', () => {
  test("When items join groups at any weights, then each item's level is groupLevel of its group count, and its level stamp moves exactly when the level does", () => {
    const adds = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 5 }), fc.constantFrom(0.25, 0.5, 1)), { maxLength: 400, size: 'medium' });
    fc.assert(
      fc.property(adds, (stream) => {
        const { model, add } = keyedModel(4, 1000, 100);
        stream.forEach(([group, item, weight], n) => {
          const before = { level: model.levelOf(item), stamp: model.levelStamps.at(item) };
          model.stamps.clock.tick();
          add(`g${group}-${n % 3}`, item, 0, weight);
          expect(model.levelOf(item)).toBe(groupLevel(model.groupsOf(item)));
          expect(model.levelStamps.at(item) !== before.stamp).toBe(model.levelOf(item) !== before.level);
        });
      }),
    );
    expect([1, 1.4, 1.5, 2, 2.9, 4, 5, 5.7, 6].map(groupLevel)).toEqual([0, 0, 1, 2, 3, 4, 4, 5, 5]);
  });

  test('When items join groups at any weights, then the compact group counts equal the counts exactly: float32 while every count fits one, float64 once one does not, and so after a restore', () => {
    const adds = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 30 }), fc.constantFrom(0.5, 1, 1, 0.3)), { maxLength: 300 });
    fc.assert(
      fc.property(adds, (stream) => {
        const { model, add } = keyedModel(4, 1000, 100);
        let fitted = true;
        const expectCompact = (restored: CoOccurrence, float32: boolean) => {
          const compact = restored.compactGroupCounts;
          expect(compact instanceof Float32Array).toBe(float32);
          for (let item = 0; item <= 30; item++) if (restored.groupsOf(item) > 0) expect(compact[item]).toBe(restored.groupsOf(item));
        };
        stream.forEach(([group, item, weight], n) => {
          add(`g${group}-${n % 3}`, item, 0, weight);
          fitted &&= Math.fround(model.groupsOf(item)) === model.groupsOf(item);
          expectCompact(model, fitted);
        });
        const restored = keyedModel(4, 1000, 100).model;
        restored.restore(model.snapshot());
        expectCompact(restored, Array.from({ length: 31 }, (_, item) => model.groupsOf(item)).every((count) => Math.fround(count) === count));
      }),
    );
  });

  test('When groups are added to, then rows, group counts and bounds equal the Map reference (baskets, sliding histories, decay, weighted groups)', () => {
    const shape = fc.record({
      kept: fc.integer({ min: 1, max: 8 }),
      maxGroups: fc.integer({ min: 1, max: 6 }),
      maxGroupItems: fc.integer({ min: 1, max: 6 }),
      sliding: fc.boolean(),
      halfLifeDays: fc.option(fc.integer({ min: 60, max: 400 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(shape, stream, (s, adds) => {
        const halfLife = s.halfLifeDays === undefined ? undefined : s.halfLifeDays * DAY;
        const { model, add } = keyedModel(s.kept, s.maxGroups, s.maxGroupItems, s.sliding, halfLife);
        const reference = new ReferenceCoOccurrence(s.kept, s.maxGroups, s.maxGroupItems, s.sliding, halfLife);
        let t = Date.UTC(2024, 0, 1);
        for (const [group, item, days] of adds) {
          t += days * DAY;
          // Odd groups weigh half, as carts do next to orders.
          const weight = group % 2 === 1 ? 0.5 : 1;
          add(`g${group}`, item, t, weight);
          reference.add(`g${group}`, item, t, weight);
        }
        expect(model.groupCount).toBe(reference.groupCount);
        for (let item = 0; item <= 20; item++) {
          expect(model.groupsOf(item)).toBe(reference.itemGroups.get(item) ?? 0);
          expect(rowOf(model, item)).toEqual(reference.pairs.entries(item));
        }
      }),
    );
  });

  test('When pair weights decay, then a pair from one half-life ago counts half at now', () => {
    const { model, add } = keyedModel(4, 10, 10, false, 10 * DAY);
    const t0 = Date.UTC(2024, 0, 1);
    add('old', 1, t0);
    add('old', 2, t0);
    add('new', 1, t0 + 10 * DAY);
    add('new', 3, t0 + 10 * DAY);
    const now = t0 + 10 * DAY;
    expect(model.together(1, 2) * model.scaleAt(now)).toBeCloseTo(0.5, 6);
    expect(model.together(1, 3) * model.scaleAt(now)).toBeCloseTo(1, 6);
    // The totals keep what was seen, undecayed, and weighted as the adds were.
    expect([model.total(1, 2), model.total(1, 3)]).toEqual([1, 1]);
    add('cart', 1, now, 0.5);
    add('cart', 2, now, 0.5);
    expect(model.total(1, 2)).toBe(1.5);
    expect(model.together(1, 2) * model.scaleAt(now)).toBeCloseTo(1, 6);
  });

  test('When events are a century apart, then weights are re-based and stay finite and in proportion', () => {
    const { model, add } = keyedModel(4, 10, 10, false, DAY);
    const t0 = Date.UTC(2000, 0, 1);
    add('a', 1, t0);
    add('a', 2, t0);
    const later = t0 + 100 * DAY; // 100 half-lives: past the re-basing exponent
    add('b', 1, later);
    add('b', 3, later);
    expect(Number.isFinite(model.together(1, 3))).toBe(true);
    expect(model.together(1, 3) * model.scaleAt(later)).toBeCloseTo(1, 6);
    expect(model.together(1, 2) * model.scaleAt(later)).toBeLessThan(1e-20);
    expect(model.total(1, 2)).toBe(1); // re-basing scales weights, never totals
  });
});
