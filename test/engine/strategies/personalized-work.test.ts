import fc from 'fast-check';
import { describe, expect, test, vi } from 'vitest';
import { DenseSet } from '../../../src/engine/dense-set.js';
import type { EventType } from '../../../src/engine/event.js';
import { PickList } from '../../../src/engine/pick-list.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { CUSTOMER_SPACE } from '../../../src/engine/shopper-keys.js';
import { personalized } from '../../../src/engine/strategies/personalized.js';
import { referencePersonalized } from '../../reference/personalized.js';
import { ask, DAY, engineWith, HOUR, product, T0 } from '../fixtures.js';

/** The personalized producer's own picks for a customer (nothing blocked, no backfill). */
function picksOf(engine: ShopEngine, customerId: string, now: number, limit: number) {
  const slot = engine.shoppers.slotIn(CUSTOMER_SPACE, customerId);
  const pick = new PickList(limit, engine.catalog, new DenseSet());
  personalized({ engine, shoppers: [slot], now }, pick);
  return pick.ids.map((id, i) => ({ id, score: pick.scores[i]! }));
}

const TYPES: EventType[] = ['view', 'view', 'add_to_cart', 'purchase'];

describe('personalized: the shortcuts against the plain reference', () => {
  test('When any shoppers view, cart and buy anything, then every customer gets the reference answer, to the bit', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ shopper: fc.nat(9), type: fc.nat(3), item: fc.nat(29), hours: fc.nat(24 * 60) }), { minLength: 1, maxLength: 250 }),
        fc.integer({ min: 1, max: 12 }),
        fc.boolean(),
        fc.array(fc.nat(29), { maxLength: 4 }),
        (events, limit, recencyOff, unavailable) => {
          const ids = Array.from({ length: 30 }, (_, i) => `p${i}`);
          const engine = engineWith(ids.map((id, i) => product(id, { available: !unavailable.includes(i), repurchasable: i % 7 === 0 })));
          if (recencyOff) engine.setRecency('off');
          const sorted = [...events].sort((a, b) => a.hours - b.hours);
          for (const e of sorted) {
            const customerId = `c${e.shopper}`;
            engine.apply({ type: TYPES[e.type]!, productId: `p${e.item}`, sessionId: `s${e.shopper}-${Math.floor(e.hours / 24)}`, customerId, timestamp: T0 - 60 * DAY + e.hours * HOUR });
          }
          const now = T0;
          for (let c = 0; c < 10; c++) {
            const slot = engine.shoppers.slotIn(CUSTOMER_SPACE, `c${c}`);
            if (slot < 0 || engine.affinities.size(slot) === 0) continue;
            expect(picksOf(engine, `c${c}`, now, limit)).toEqual(referencePersonalized(engine, slot, now, limit));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('personalized: the work of a long history', () => {
  test('When a customer with 64 affinities and 500 purchases asks, then momentum is read for few candidates and no product object for the purchases', () => {
    const history = Array.from({ length: 64 }, (_, i) => `h${i}`);
    const neighbours = Array.from({ length: 400 }, (_, i) => `n${i}`);
    const sold = ['s0', 's1', 's2', 's3'];
    const bought = Array.from({ length: 500 }, (_, i) => `b${i}`);
    const engine = engineWith([...history, ...neighbours, ...sold, ...bought]);
    let t = T0 - 30 * DAY;
    const at = (customerId: string, type: EventType, productId: string) => engine.apply({ type, productId, sessionId: `s-${customerId}`, customerId, timestamp: (t += 60_000) });
    // Peers pair each history product with neighbours no one ever bought, and a few with products that sell.
    for (let i = 0; i < 400; i++) {
      at(`peer${i}`, 'view', history[i % 64]!);
      at(`peer${i}`, 'view', neighbours[i]!);
      at(`peer${i}`, 'view', neighbours[(i * 7 + 3) % 400]!);
      if (i % 40 === 0) at(`peer${i}`, 'purchase', sold[(i / 40) % 4]!);
    }
    for (const id of bought) at('me', 'purchase', id);
    for (const id of history) at('me', 'view', id);
    expect(engine.affinities.size(engine.shoppers.slotIn(CUSTOMER_SPACE, 'me'))).toBe(64);
    const momentum = vi.spyOn(engine.sales, 'momentum');
    const everCounter = vi.spyOn(engine.sales.ever, 'raw');
    const products = vi.spyOn(engine.catalog, 'product');
    const answer = ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0);
    expect(answer.items.filter((item) => item.strategy === 'personalized')).toHaveLength(8);
    // Hundreds of candidates (108 momentum reads before the ceiling's test, 15 with it): momentum,
    // three counters, only for those their ceiling (one byte) and the pick list let in.
    expect(momentum.mock.calls.length).toBeLessThanOrEqual(24);
    // The ceiling is read from its byte, not from the sales counter (123 counter reads before it).
    expect(everCounter.mock.calls.length).toBe(momentum.mock.calls.length);
    // The purchases are blocked by a flag per product, not by reading each one's object (508 reads before).
    expect(products.mock.calls.length).toBeLessThanOrEqual(8);
  });
});
