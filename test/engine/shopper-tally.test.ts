import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { ShopperTally, TALLY_PRODUCTS, TALLY_WINDOW_MS } from '../../src/engine/shopper-tally.js';
import { ReferenceTally } from '../reference/shopper-tally.js';
import { T0 } from './fixtures.js';

describe('ShopperTally', () => {
  test('When a shopper sends 200 events on one product in a window, then only the cap counts; the next window counts again', () => {
    const slots = new LruSlots(4);
    const tally = new ShopperTally(slots, 16);
    const shopper = slots.touch('s:1');
    let counted = 0;
    for (let i = 0; i < 200; i++) counted += tally.admit(shopper, 7, 1, T0 + i);
    expect(counted).toBe(16);
    // Another product and another shopper have caps of their own.
    expect(tally.admit(shopper, 8, 6, T0)).toBe(6);
    expect(tally.admit(slots.touch('s:2'), 7, 6, T0)).toBe(6);
    // Part of an event counts when it crosses the cap.
    const next = T0 + TALLY_WINDOW_MS;
    expect(tally.admit(shopper, 7, 6, next) + tally.admit(shopper, 7, 6, next) + tally.admit(shopper, 7, 6, next)).toBe(16);
  });

  test('When a slot is handed to a new shopper or cleared, then its tally starts empty', () => {
    const slots = new LruSlots(1);
    const tally = new ShopperTally(slots, 2);
    const first = slots.touch('s:1');
    tally.admit(first, 1, 2, T0);
    expect(tally.admit(first, 1, 2, T0)).toBe(0);
    const second = slots.touch('s:2'); // evicts s:1, reusing its slot
    expect(second).toBe(first);
    expect(tally.admit(second, 1, 2, T0)).toBe(2);
    tally.clear(second);
    expect(tally.size(second)).toBe(0);
    expect(tally.admit(second, 1, 2, T0)).toBe(2);
  });

  test("When a later window starts, then the shopper's tally starts afresh and holds only that window's products", () => {
    const slots = new LruSlots(2);
    const tally = new ShopperTally(slots, 4);
    const shopper = slots.touch('s:1');
    for (let id = 0; id < 10; id++) tally.admit(shopper, id, 4, T0);
    expect(tally.size(shopper)).toBe(10);
    expect(tally.admit(shopper, 3, 1, T0 + TALLY_WINDOW_MS)).toBe(1);
    expect(tally.size(shopper)).toBe(1);
    // An event of the earlier window now counts against the later one.
    expect(tally.admit(shopper, 3, 4, T0)).toBe(3);
    expect(tally.admit(shopper, 5, 4, T0)).toBe(4);
  });

  test('When any events are tallied, then the tally admits exactly what the plain reference admits, and its snapshot restores it', () => {
    const eventArb = fc.record({
      shopper: fc.integer({ min: 0, max: 5 }),
      id: fc.integer({ min: 0, max: 2 * TALLY_PRODUCTS }),
      weight: fc.constantFrom(0.5, 1, 2, 3, 4, 6),
      t: fc.integer({ min: 0, max: 4 * TALLY_WINDOW_MS }),
    });
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 400 }), fc.integer({ min: 1, max: 20 }), (events, cap) => {
        const slots = new LruSlots(4);
        const tally = new ShopperTally(slots, cap);
        const reference = new ReferenceTally(slots, cap);
        const half = events.length >> 1;
        let current = tally;
        events.forEach((e, i) => {
          if (i === half) {
            // Halfway, the tally goes on from its snapshot, as after a restart.
            const restored = new ShopperTally(slots, cap);
            restored.restore(structuredClone(current.snapshot()));
            current = restored;
          }
          const slot = slots.touch(`s:${e.shopper}`);
          expect(current.admit(slot, e.id, e.weight, T0 + e.t)).toBe(reference.admit(slot, e.id, e.weight, T0 + e.t));
          expect(current.size(slot)).toBeLessThanOrEqual(TALLY_PRODUCTS);
        });
      }),
      { numRuns: 200 },
    );
  });

  test('When a shopper touches at most TALLY_PRODUCTS products, then it never counts more than the cap per product and window', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.integer({ min: 0, max: TALLY_PRODUCTS - 1 }), weight: fc.constantFrom(1, 2, 3, 4, 6), t: fc.integer({ min: 0, max: 3 * TALLY_WINDOW_MS }) }), { maxLength: 300 }),
        (events) => {
          const slots = new LruSlots(1);
          const tally = new ShopperTally(slots, 16);
          const shopper = slots.touch('s:1');
          const counted = new Map<string, number>();
          // In time order, as a live shopper sends them.
          for (const e of [...events].sort((a, b) => a.t - b.t)) {
            const key = `${e.id}/${Math.floor(e.t / TALLY_WINDOW_MS)}`;
            counted.set(key, (counted.get(key) ?? 0) + tally.admit(shopper, e.id, e.weight, e.t));
          }
          for (const total of counted.values()) expect(total).toBeLessThanOrEqual(16);
        },
      ),
    );
  });
});
