import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { RecentViews } from '../../src/engine/recent-views.js';
import { T0 } from './fixtures.js';

/** A history table over its own shopper slots, recorded by key. */
function views(perShopper: number, maxShoppers: number) {
  const slots = new LruSlots(maxShoppers);
  const table = new RecentViews(slots, perShopper);
  return {
    slots,
    record: (key: string, id: number, t: number) => table.record(slots.touch(key), id, t),
    get: (key: string) => {
      const slot = slots.slotOf(key);
      if (slot < 0) return undefined;
      const start = table.start(slot);
      return { ids: Array.from(table.ids.subarray(start, start + table.size(slot))), times: Array.from(table.times.subarray(start, start + table.size(slot))) };
    },
  };
}

describe('RecentViews', () => {
  test('When a shopper views products, then the history is newest first and distinct', () => {
    const history = views(10, 100);
    history.record('s:1', 1, T0);
    history.record('s:1', 2, T0 + 1);
    history.record('s:1', 1, T0 + 2); // viewed again: moves to the front
    expect(history.get('s:1')).toEqual({ ids: [1, 2], times: [T0 + 2, T0 + 1] });
  });

  test('When more products are viewed than the bound, then only the newest `perShopper` are kept', () => {
    const history = views(3, 100);
    for (let i = 0; i < 5; i++) history.record('s:1', i, T0 + i);
    expect(history.get('s:1')!.ids).toEqual([4, 3, 2]);
  });

  test('When views arrive out of time order, then each is placed by its time', () => {
    const history = views(3, 100);
    history.record('s:1', 1, T0 + 10);
    history.record('s:1', 2, T0 + 30);
    history.record('s:1', 3, T0 + 20);
    expect(history.get('s:1')!.ids).toEqual([2, 3, 1]);
    history.record('s:1', 4, T0); // older than all and the history is full: not kept
    expect(history.get('s:1')!.ids).toEqual([2, 3, 1]);
    history.record('s:1', 2, T0 + 5); // an older view of a product seen later: the later one stands
    expect(history.get('s:1')).toEqual({ ids: [2, 3, 1], times: [T0 + 30, T0 + 20, T0 + 10] });
  });

  test('When two shoppers view products, then their histories are separate and the shopper bound holds', () => {
    const history = views(5, 2);
    history.record('s:1', 1, T0);
    history.record('s:2', 2, T0);
    history.record('s:3', 3, T0);
    expect(history.slots.size).toBe(2);
    expect(history.get('s:1')).toBeUndefined();
    expect(history.get('s:2')!.ids).toEqual([2]);
    expect(history.get('s:3')!.ids).toEqual([3]);
  });

  test('When views arrive in any order, then the history equals the newest distinct views sorted by time', () => {
    const view = fc.record({ id: fc.integer({ min: 0, max: 12 }), t: fc.integer({ min: 0, max: 1_000 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.uniqueArray(view, { selector: (v) => v.t, maxLength: 40 }), (perShopper, log) => {
        const history = views(perShopper, 10);
        for (const { id, t } of log) history.record('s:1', id, T0 + t);
        const latest = new Map<number, number>();
        for (const { id, t } of log) latest.set(id, Math.max(latest.get(id) ?? -1, T0 + t));
        const expected = [...latest].sort((a, b) => b[1] - a[1]).slice(0, perShopper);
        const kept = history.get('s:1') ?? { ids: [], times: [] };
        expect(kept.ids).toEqual(expected.map(([id]) => id));
        expect(kept.times).toEqual(expected.map(([, t]) => t));
      }),
      { numRuns: 300 },
    );
  });
});
