import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RecentViews } from '../../src/engine/recent-views.js';
import { T0 } from './fixtures.js';

describe('RecentViews', () => {
  test('When a shopper views products, then the history is newest first and distinct', () => {
    const views = new RecentViews(10, 100);
    views.record('s:1', 1, T0);
    views.record('s:1', 2, T0 + 1);
    views.record('s:1', 1, T0 + 2); // viewed again: moves to the front
    expect(views.get('s:1')).toEqual({ ids: [1, 2], times: [T0 + 2, T0 + 1] });
  });

  test('When more products are viewed than the bound, then only the newest `perShopper` are kept', () => {
    const views = new RecentViews(3, 100);
    for (let i = 0; i < 5; i++) views.record('s:1', i, T0 + i);
    expect(views.get('s:1')!.ids).toEqual([4, 3, 2]);
  });

  test('When views arrive out of time order, then each is placed by its time', () => {
    const views = new RecentViews(3, 100);
    views.record('s:1', 1, T0 + 10);
    views.record('s:1', 2, T0 + 30);
    views.record('s:1', 3, T0 + 20);
    expect(views.get('s:1')!.ids).toEqual([2, 3, 1]);
    views.record('s:1', 4, T0); // older than all and the history is full: not kept
    expect(views.get('s:1')!.ids).toEqual([2, 3, 1]);
    views.record('s:1', 2, T0 + 5); // an older view of a product seen later: the later one stands
    expect(views.get('s:1')).toEqual({ ids: [2, 3, 1], times: [T0 + 30, T0 + 20, T0 + 10] });
  });

  test('When two shoppers view products, then their histories are separate and the shopper bound holds', () => {
    const views = new RecentViews(5, 2);
    views.record('s:1', 1, T0);
    views.record('s:2', 2, T0);
    views.record('s:3', 3, T0);
    expect(views.shopperCount).toBe(2);
    expect(views.get('s:1')).toBeUndefined();
    expect(views.get('s:2')!.ids).toEqual([2]);
    expect(views.get('s:3')!.ids).toEqual([3]);
  });

  test('When views arrive in any order, then the history equals the newest distinct views sorted by time', () => {
    const view = fc.record({ id: fc.integer({ min: 0, max: 12 }), t: fc.integer({ min: 0, max: 1_000 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.uniqueArray(view, { selector: (v) => v.t, maxLength: 40 }), (perShopper, log) => {
        const views = new RecentViews(perShopper, 10);
        for (const { id, t } of log) views.record('s:1', id, T0 + t);
        const latest = new Map<number, number>();
        for (const { id, t } of log) latest.set(id, Math.max(latest.get(id) ?? -1, T0 + t));
        const expected = [...latest].sort((a, b) => b[1] - a[1]).slice(0, perShopper);
        const history = views.get('s:1') ?? { ids: [], times: [] };
        expect(history.ids).toEqual(expected.map(([id]) => id));
        expect(history.times).toEqual(expected.map(([, t]) => t));
      }),
      { numRuns: 300 },
    );
  });
});
