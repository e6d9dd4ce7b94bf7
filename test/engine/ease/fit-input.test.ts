import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { fitInput, fitInputInTurns, type FitInput } from '../../../src/engine/ease/fit-input.js';
import type { EventType } from '../../../src/engine/event.js';
import { referenceFitInput } from '../../reference/fit-input.js';
import { engineWith, T0 } from '../fixtures.js';

/** The input as plain lists: its items, and each shopper's indexes in the order read. */
function plain(input: FitInput | undefined): { items: number[]; histories: number[][] } | undefined {
  if (input === undefined) return undefined;
  const { starts, items } = input.histories;
  const histories: number[][] = [];
  for (let s = 0; s + 1 < starts.length; s++) histories.push(Array.from(items.subarray(starts[s]!, starts[s + 1]!)));
  return { items: Array.from(input.items), histories };
}

const events = fc.array(
  fc.record({
    type: fc.constantFrom<EventType>('view', 'click', 'add_to_cart', 'purchase', 'save', 'dismiss'),
    product: fc.integer({ min: 0, max: 14 }), // 12 and up: not in the catalog
    shopper: fc.integer({ min: 0, max: 9 }),
    minutes: fc.integer({ min: 0, max: 20_000 }),
  }),
  { maxLength: 150 },
);

describe('EASE fit input', () => {
  test('When any events were applied, then the input is the reference one: the most popular products (ties in id order) and each shopper history over them', () => {
    fc.assert(
      fc.property(events, fc.integer({ min: 2, max: 14 }), (stream, maxItems) => {
        const engine = engineWith(Array.from({ length: 12 }, (_, i) => `p${i}`));
        for (const e of stream) engine.apply({ type: e.type, productId: `p${e.product}`, sessionId: `s${e.shopper}`, ...(e.shopper % 3 ? { customerId: `c${e.shopper}` } : {}), timestamp: T0 + e.minutes * 60_000 });
        const expected = referenceFitInput(engine, maxItems);
        const actual = plain(fitInput(engine, maxItems));
        if (expected === undefined) {
          expect(actual).toBeUndefined();
          return;
        }
        expect(actual?.items).toEqual(expected.items);
        expect(actual?.histories.map((h) => [...h].sort((a, b) => a - b))).toEqual(expected.histories.map((h) => [...h].sort((a, b) => a - b)));
      }),
      { numRuns: 300 },
    );
  });

  test('When the input is read a step per turn, then it is the same input, with the thread given back after the ranking and every step of shoppers', async () => {
    const engine = engineWith(Array.from({ length: 6 }, (_, i) => `p${i}`));
    for (let s = 0; s < 25; s++) for (let k = 0; k < 3; k++) engine.apply({ type: 'purchase', productId: `p${(s + k) % 6}`, sessionId: `s${s}`, customerId: `c${s}`, timestamp: T0 + s * 1000 + k });
    let pauses = 0;
    const inTurns = await fitInputInTurns(engine, 6, async () => void pauses++, 4);
    expect(plain(inTurns)).toEqual(plain(fitInput(engine, 6)));
    expect(pauses).toBe(1 + Math.ceil(engine.shoppers.size / 4) - 1);
  });
});
