import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Histories } from '../../../src/engine/ease/solver.js';
import { newestRecency, validationSplit, type TuningInput } from '../../../src/engine/tuning/validation-split.js';

/** Rows of [item, purchase order (-1: not bought), recency (1: now, smaller: older), bought once (default: when bought)]. */
function input(rows: ([number, number, number] | [number, number, number, boolean])[][]): [Histories, TuningInput] {
  const starts = [0];
  const items: number[] = [];
  const orders: number[] = [];
  const recency: number[] = [];
  const once: number[] = [];
  for (const row of rows) {
    for (const [item, order, r, boughtOnce = order >= 0] of row) {
      items.push(item);
      orders.push(order);
      recency.push(r);
      once.push(boughtOnce ? 1 : 0);
    }
    starts.push(items.length);
  }
  return [
    { starts: Int32Array.from(starts), items: Int32Array.from(items), values: new Float32Array(items.length).fill(1) },
    {
      entries: { strengths: new Float32Array(items.length).fill(1), purchaseOrder: Int32Array.from(orders), recency: Float32Array.from(recency), once: Uint8Array.from(once) },
      items: { recent: new Float32Array(10), long: new Float32Array(10), ever: new Float32Array(10), recentUnits: 26 },
    },
  ];
}

const options = { minPurchases: 2, recentShare: 0.25, held: 'newest', maxShoppers: 100, minStride: 1 } as const;

describe('validationSplit', () => {
  test("When a shopper's newest purchase is among the shop's newest, then it is held out and the rest trains, views included", () => {
    // shopper 0 bought 3, then 1, then 4 (newest of the shop); viewed 2. Shopper 1 bought long ago.
    const split = validationSplit(10, ...input([[[1, 1, 0.2], [2, -1, 0], [3, 0, 0.1], [4, 2, 0.9]], [[5, 0, 0.01], [6, 1, 0.02]]]), { ...options, recentShare: 0.2 });
    expect(Array.from(split.rows)).toEqual([0]);
    expect(Array.from(split.heldItems)).toEqual([4]);
    expect(Array.from(split.train.items)).toEqual([1, 2, 3, 5, 6]);
    expect(Array.from(split.bought)).toEqual([1, 0, 1, 1, 1]);
    expect(split.heldOrders[4]).toBe(1);
    expect(split.heldRecent[4]).toBeCloseTo(0.9);
    expect(split.heldOrders[1]).toBe(0);
  });

  test('When a shopper bought again among the newest a product first bought before a later one, then it is not held out: only products first bought among the newest are', () => {
    // item 9 first bought (order 0), then 8 (order 1, long ago), then 9 again lately; item 7 first bought lately (order 2)
    const split = validationSplit(10, ...input([[[9, 0, 0.95], [8, 1, 0.1], [7, 2, 0.9]], [[5, 0, 0.01], [6, 1, 0.02]]]), { ...options, recentShare: 0.4 });
    expect(Array.from(split.heldItems)).toEqual([7]);
    expect(Array.from(split.train.items)).toEqual([9, 8, 5, 6]);
  });

  test('When a shopper bought once, or has nothing left to predict from, then they are not held out and keep their whole row', () => {
    const rows = input([[[1, 0, 0.9], [2, -1, 0]], [[5, 0, 0.9], [6, 1, 0.95]], [[7, 0, 0.5], [8, 1, 0.5]]]);
    const split = validationSplit(10, ...rows, { ...options, recentShare: 0.5 });
    expect(Array.from(split.rows)).toEqual([]); // 0 bought once; 1 bought both among the newest; 2 bought nothing new
    expect(Array.from(split.train.items)).toEqual([1, 2, 5, 6, 7, 8]);
    const both = validationSplit(10, ...rows, { ...options, recentShare: 0.5, minPurchases: 1 });
    expect(Array.from(both.rows)).toEqual([0]);
  });

  test('When more shoppers are eligible than taken, then every k-th is held out and the others train on everything', () => {
    const rows = Array.from({ length: 10 }, (_, s): [number, number, number][] => [[s % 5, 0, 0.1], [5 + (s % 5), 1, 0.9]]);
    const split = validationSplit(10, ...input(rows), { ...options, recentShare: 0.5, minStride: 2 });
    expect(Array.from(split.rows)).toEqual([0, 2, 4, 6, 8]);
    expect(split.train.items.length).toBe(20 - 5);
    const capped = validationSplit(10, ...input(rows), { ...options, recentShare: 0.5, maxShoppers: 3 });
    expect(Array.from(capped.rows)).toEqual([0, 4, 8]);
  });

  test('When any split is made, then every entry is in training or held out exactly once, and held-out ones are purchases at or above the newest share', () => {
    const entry = fc.tuple(fc.integer({ min: 0, max: 9 }), fc.boolean(), fc.float({ min: 0, max: 1, noNaN: true }));
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 6 }), { maxLength: 20 }), fc.double({ min: 0.01, max: 1, noNaN: true }), (shoppers, share) => {
        let order = 0;
        const rows = shoppers.map((row) => row.map(([item, bought, r]): [number, number, number] => [item, bought ? order++ : -1, bought ? r : 0]));
        const [histories, tuning] = input(rows);
        const split = validationSplit(10, histories, tuning, { ...options, recentShare: share });
        expect(split.train.items.length + split.heldItems.length).toBe(histories.items.length);
        const threshold = newestRecency(tuning.entries.purchaseOrder, tuning.entries.recency, share);
        split.rows.forEach((s, v) => {
          for (let h = split.heldStarts[v]!; h < split.heldStarts[v + 1]!; h++) {
            const k = rows[s]!.findIndex(([item]) => item === split.heldItems[h]);
            expect(rows[s]![k]![1]).toBeGreaterThanOrEqual(0);
            expect(rows[s]![k]![2]).toBeGreaterThanOrEqual(threshold);
          }
        });
      }),
    );
  });
});

describe('validationSplit, whole orders (recency off)', () => {
  /** A shopper's `count` orders of two products each (items first + 2o, first + 2o + 1), order o at recency (o + 1) / 100. */
  const orders = (first: number, count: number): [number, number, number][] =>
    Array.from({ length: 2 * count }, (_, k) => [first + k, k, (Math.floor(k / 2) + 1) / 100]);

  test('When orders are held out, then every 5th order of each shopper is, whole, from an offset turning with the shopper, and none of its products stays in training', () => {
    const split = validationSplit(60, ...input([orders(0, 10), orders(20, 10)]), { ...options, recentShare: 0.2, held: 'orders' });
    expect(Array.from(split.rows)).toEqual([0, 1]);
    // shopper 0: orders 0 and 5; shopper 1: (order + 1) % 5 = 0, orders 4 and 9
    expect(Array.from(split.heldItems)).toEqual([0, 1, 10, 11, 28, 29, 38, 39]);
    const trainOf = (s: number) => Array.from(split.train.items.subarray(split.train.starts[s]!, split.train.starts[s + 1]!));
    for (const [v, s] of Array.from(split.rows).entries()) {
      const held = Array.from(split.heldItems.subarray(split.heldStarts[v]!, split.heldStarts[v + 1]!));
      // each held order's basket-mate is held with it: nothing of the order is left to find it by
      for (const item of held) expect(held).toContain(item % 2 === 0 ? item + 1 : item - 1);
      expect(trainOf(s).filter((item) => held.includes(item))).toEqual([]);
    }
  });

  test('When a product was bought again, or viewed and bought, then its time is not its order\'s and it stays in training, never held out', () => {
    // orders 0..4 of two products; product 2 (in order 1) was bought again later, so its time is not order 1's
    const row: [number, number, number, boolean][] = orders(0, 5).map(([item, order, r]) => [item, order, item === 2 ? 0.5 : r, item !== 2]);
    const split = validationSplit(20, ...input([row]), { ...options, recentShare: 0.2, held: 'orders' });
    expect(Array.from(split.heldItems)).toEqual([0, 1]); // order 0 only: 5 orders, every 5th
    const half = validationSplit(20, ...input([row]), { ...options, recentShare: 0.5, held: 'orders' });
    expect(Array.from(half.heldItems)).toEqual([0, 1, 4, 5, 8, 9]); // orders 0, 2, 4
    const odd = validationSplit(20, ...input([[], row]), { ...options, recentShare: 0.5, held: 'orders' });
    expect(Array.from(odd.heldItems)).toEqual([3, 6, 7]); // orders 1, 3 (the second shopper's offset), product 2 of order 1 left in training
  });

  test('When any split of orders is made, then every entry is in training or held out exactly once, held ones are once-bought, and no held-out order keeps a product in training', () => {
    const entry = fc.tuple(fc.integer({ min: 0, max: 19 }), fc.boolean(), fc.integer({ min: 1, max: 4 }), fc.boolean());
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 10 }), { maxLength: 20 }), fc.double({ min: 0.05, max: 1, noNaN: true }), (shoppers, share) => {
        let order = 0;
        const rows = shoppers.map((row) => row.map(([item, bought, time, once]): [number, number, number, boolean] => [item, bought ? order++ : -1, bought ? time / 4 : 0, bought && once]));
        const [histories, tuning] = input(rows);
        const split = validationSplit(20, histories, tuning, { ...options, recentShare: share, held: 'orders' });
        expect(split.train.items.length + split.heldItems.length).toBe(histories.items.length);
        split.rows.forEach((s, v) => {
          const heldTimes = new Set<number>();
          for (let h = split.heldStarts[v]!; h < split.heldStarts[v + 1]!; h++) {
            const held = rows[s]!.find(([item]) => item === split.heldItems[h])!;
            expect(held[3]).toBe(true);
            heldTimes.add(held[2]);
          }
          for (let k = split.train.starts[s]!; k < split.train.starts[s + 1]!; k++) {
            const kept = rows[s]!.find(([item]) => item === split.train.items[k])!;
            if (kept[3]) expect(heldTimes.has(kept[2])).toBe(false);
          }
        });
      }),
    );
  });
});

describe('newestRecency', () => {
  test('When a quarter of 8 purchases is asked for, then the 2nd newest recency is the threshold; no purchase: Infinity', () => {
    const orders = Int32Array.from([0, 1, 2, 3, 4, 5, 6, 7, -1]);
    const recency = Float32Array.from([0.1, 0.8, 0.3, 0.9, 0.2, 0.5, 0.4, 0.6, 1]);
    expect(newestRecency(orders, recency, 0.25)).toBeCloseTo(0.8);
    expect(newestRecency(orders, recency, 0.01)).toBeCloseTo(0.9); // at least the newest
    expect(newestRecency(Int32Array.from([-1]), Float32Array.from([1]), 0.5)).toBe(Infinity);
  });
});
