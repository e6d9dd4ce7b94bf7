import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Histories } from '../../../src/engine/ease/solver.js';
import { cartSplit } from '../../../src/engine/tuning/cart-split.js';
import type { TuningInput } from '../../../src/engine/tuning/validation-split.js';

/** Rows of [item, purchase time (its recency, 1: now), bought once]; a time of 0 with once false: a view. */
function input(rows: [number, number, boolean][][]): [Histories, TuningInput] {
  const starts = [0];
  const items: number[] = [];
  const recency: number[] = [];
  const once: number[] = [];
  for (const row of rows) {
    for (const [item, r, boughtOnce] of row) {
      items.push(item);
      recency.push(r);
      once.push(boughtOnce ? 1 : 0);
    }
    starts.push(items.length);
  }
  return [
    { starts: Int32Array.from(starts), items: Int32Array.from(items), values: new Float32Array(items.length).fill(1) },
    {
      entries: { strengths: new Float32Array(items.length).fill(1), purchaseOrder: Int32Array.from(once.map((o, k) => (o ? k : -1))), recency: Float32Array.from(recency), once: Uint8Array.from(once) },
      items: { recent: new Float32Array(20), long: new Float32Array(20), ever: new Float32Array(20), recentUnits: 26 },
    },
  ];
}

const rowsOf = (h: Histories) => Array.from({ length: h.starts.length - 1 }, (_, s) => Array.from(h.items.subarray(h.starts[s]!, h.starts[s + 1]!)));

describe('cartSplit', () => {
  test("When a shopper's newest order of four products is among the shop's newest, then it is held out whole: two of them the cart, two to find, neither in the training rows nor orders", () => {
    // Shopper 0: an old order {1, 2}, a newest one {3, 4, 5, 6}, a view of 7. Shopper 1: one old order {1, 2, 8}.
    const [histories, tuning] = input([
      [[1, 0.1, true], [2, 0.1, true], [3, 0.9, true], [4, 0.9, true], [5, 0.9, true], [6, 0.9, true], [7, 0, false]],
      [[1, 0.2, true], [2, 0.2, true], [8, 0.2, true]],
    ]);
    const split = cartSplit(histories, tuning, { held: 'newest', share: 0.5, maxCarts: 10 });
    expect(Array.from(split.carts.cartSizes)).toEqual([2]);
    expect(Array.from(split.carts.items).sort()).toEqual([3, 4, 5, 6]);
    expect(rowsOf(split.train)).toEqual([[1, 2, 7], [1, 2, 8]]);
    expect(rowsOf(split.orders)).toEqual([[1, 2], [1, 2, 8]]);
  });

  test('When recency is off, then every 5th order of three or more is held out, whole', () => {
    const order = (t: number, first: number) => [[first, t, true], [first + 1, t, true], [first + 2, t, true]] as [number, number, boolean][];
    const [histories, tuning] = input([[...order(0.1, 0), ...order(0.2, 3), ...order(0.3, 6), ...order(0.4, 9), ...order(0.5, 12), ...order(0.6, 15)]]);
    const split = cartSplit(histories, tuning, { held: 'orders', share: 0.2, maxCarts: 10 });
    // Row 0: orders 0 and 5 (every 5th from offset 0).
    expect(Array.from(split.carts.cartSizes)).toEqual([1, 1]);
    expect(Array.from(split.carts.items).sort((a, b) => a - b)).toEqual([0, 1, 2, 15, 16, 17]);
    expect(split.train.items.length).toBe(12);
  });

  test('When histories are random, then every entry is either trained on or in one held-out order, held-out orders are whole orders of three or more, and their carts are min(5, ⌊m/2⌋) of them', () => {
    const row = fc.array(fc.tuple(fc.integer({ min: 0, max: 19 }), fc.constantFrom(0, 0.1, 0.3, 0.5, 0.9), fc.boolean()), { maxLength: 14 }).map((entries) => {
      const seen = new Set<number>();
      return entries.filter(([item]) => !seen.has(item) && seen.add(item)).map(([item, r, o]): [number, number, boolean] => [item, o ? r || 0.05 : 0, o]);
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.constantFrom('newest' as const, 'orders' as const), fc.constantFrom(0.1, 0.2, 0.5), (rows, held, share) => {
        // Each shopper's products apart from the others': a held-out order names its shopper.
        const [histories, tuning] = input(rows.map((r, s) => r.map(([item, t, o]): [number, number, boolean] => [item + 20 * s, t, o])));
        const split = cartSplit(histories, tuning, { held, share, maxCarts: 1000 });
        const { starts, items, cartSizes } = split.carts;
        const trained = rowsOf(split.train);
        let heldCount = 0;
        for (let c = 0; c < cartSizes.length; c++) {
          const order = Array.from(items.subarray(starts[c]!, starts[c + 1]!));
          heldCount += order.length;
          expect(order.length).toBeGreaterThanOrEqual(3);
          expect(cartSizes[c]).toBe(Math.min(5, Math.floor(order.length / 2)));
          // One shopper's order: the same time, bought once, gone from that shopper's training row.
          const s = Math.floor(order[0]! / 20);
          for (const i of order) expect(Math.floor(i / 20)).toBe(s);
          expect(order.every((i) => rows[s]!.some(([item, , o]) => item + 20 * s === i && o))).toBe(true);
          const times = new Set(order.map((i) => rows[s]!.find(([item]) => item + 20 * s === i)![1]));
          expect(times.size).toBe(1);
          for (const i of order) expect(trained[s]).not.toContain(i);
        }
        expect(split.train.items.length + heldCount).toBe(histories.items.length);
      }),
      { numRuns: 300 },
    );
  });
});
