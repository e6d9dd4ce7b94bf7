import { describe, expect, test } from 'vitest';
import type { Histories } from '../../../src/engine/ease/solver.js';
import { validationSplit, type TuningInput } from '../../../src/engine/tuning/validation-split.js';

/** Rows of [item, purchase order (-1: not bought), recency]. */
function input(rows: [number, number, number][][]): { histories: Histories; tuning: TuningInput } {
  const starts = [0];
  const items: number[] = [];
  const orders: number[] = [];
  const recency: number[] = [];
  for (const row of rows) {
    for (const [item, order, r] of row) {
      items.push(item);
      orders.push(order);
      recency.push(r);
    }
    starts.push(items.length);
  }
  return {
    histories: { starts: Int32Array.from(starts), items: Int32Array.from(items), values: new Float32Array(items.length).fill(1) },
    tuning: {
      entries: { strengths: new Float32Array(items.length).fill(1), purchaseOrder: Int32Array.from(orders), recency: Float32Array.from(recency) },
      items: { recent: new Float32Array(10), orders: new Float32Array(10) },
    },
  };
}

const options = { minPurchases: 2, heldOutShare: 0.2, maxHeldOut: 3, maxShoppers: 100, minStride: 1 };

describe('validationSplit', () => {
  test('When a shopper bought in some order, then their last purchase is held out and the rest trains, views included', () => {
    // bought 3 (first), 1, then 4 (last); viewed 2
    const { histories, tuning } = input([[[1, 1, 0.2], [2, -1, 0], [3, 0, 0.1], [4, 2, 0.9]]]);
    const split = validationSplit(10, histories, tuning, options);
    expect(Array.from(split.rows)).toEqual([0]);
    expect(Array.from(split.heldItems)).toEqual([4]);
    expect(Array.from(split.train.items)).toEqual([1, 2, 3]);
    expect(Array.from(split.bought)).toEqual([1, 0, 1]);
    expect(split.heldOrders[4]).toBe(1);
    expect(split.heldRecent[4]).toBeCloseTo(0.9);
    expect(split.heldOrders[1]).toBe(0);
  });

  test('When a shopper bought 10 products, then the last 2 (20 %) are held out; 20 products: the last 3 (the cap)', () => {
    const bought = (count: number) => Array.from({ length: count }, (_, k): [number, number, number] => [k, count - 1 - k, 0]); // item 0 bought last
    const ten = validationSplit(30, ...Object.values(input([bought(10)])) as [Histories, TuningInput], options);
    expect(Array.from(ten.heldItems).sort()).toEqual([0, 1]);
    const twenty = validationSplit(30, ...Object.values(input([bought(20)])) as [Histories, TuningInput], options);
    expect(Array.from(twenty.heldItems).sort()).toEqual([0, 1, 2]);
  });

  test('When a shopper bought once, or has nothing left to predict from, then they are not held out and keep their whole row', () => {
    const { histories, tuning } = input([[[1, 0, 0], [2, -1, 0]], [[5, 0, 0], [6, 1, 0]]]);
    const split = validationSplit(10, histories, tuning, { ...options, minPurchases: 2 });
    expect(split.rows.length).toBe(1); // the second: 2 purchases, one held, one left
    expect(Array.from(split.train.items)).toEqual([1, 2, 5]);
    const both = validationSplit(10, histories, tuning, { ...options, minPurchases: 1 });
    expect(Array.from(both.rows)).toEqual([0, 1]);
  });

  test('When more shoppers are eligible than taken, then every k-th is held out and the others train on everything', () => {
    const rows = Array.from({ length: 10 }, (_, s): [number, number, number][] => [[s % 5, 0, 0], [5 + (s % 5), 1, 0]]);
    const { histories, tuning } = input(rows);
    const split = validationSplit(10, histories, tuning, { ...options, maxShoppers: 100, minStride: 2 });
    expect(Array.from(split.rows)).toEqual([0, 2, 4, 6, 8]);
    expect(split.train.items.length).toBe(20 - 5);
    const capped = validationSplit(10, histories, tuning, { ...options, maxShoppers: 3, minStride: 1 });
    expect(Array.from(capped.rows)).toEqual([0, 4, 8]);
  });
});
