// A customer's state in the engine as a whole: rebuilt from their events after an eviction as
// applying them made it, and erased so that no snapshot names them.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { customerModelState, eraseCustomer, rebuildCustomer } from '../../src/engine/customer-state.js';
import type { EngineEvent, EventType } from '../../src/engine/event.js';
import { ShopEngine } from '../../src/engine/shop-engine.js';
import { CUSTOMER_SPACE, SESSION_SPACE } from '../../src/engine/shopper-keys.js';
import { engineWith, event, T0 } from './fixtures.js';

const PRODUCTS = ['1', '2', '3', '4', '5', '6'];
const TYPES: EventType[] = ['view', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'impression'];

/** Every string a snapshot holds, at any depth. */
function stringsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) for (const item of Object.values(value)) stringsOf(item, into);
  return into;
}

describe('customer state', () => {
  test('When a customer is evicted and rebuilt from their events, then the models hold for them what applying the events gave', () => {
    const history = fc.array(fc.record({ type: fc.constantFrom(...TYPES), product: fc.constantFrom(...PRODUCTS), minute: fc.integer({ min: 0, max: 600 }) }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(history, (steps) => {
        const engine = engineWith(PRODUCTS, { maxCustomers: 4, maxSessions: 4 });
        const events: EngineEvent[] = steps.map((s) => event(s.type, s.product, T0 + s.minute * 60_000, { sessionId: 'loyal-s', customerId: 'loyal' }));
        for (const e of events) engine.apply(e);
        const before = customerModelState(engine, 'loyal');
        for (let i = 0; i < 8; i++) engine.apply(event('dismiss', '6', T0, { sessionId: `flood-s${i}`, customerId: `flood-${i}` }));
        expect(engine.shoppers.slotIn(CUSTOMER_SPACE, 'loyal')).toBe(-1);
        rebuildCustomer(engine, 'loyal', events);
        const after = customerModelState(engine, 'loyal');
        // A rebuild names the same products; only float32 affinity sums may round in another order.
        expect({ ...after, affinities: [...after.affinities].sort() }).toEqual({ ...before, affinities: [...before.affinities].sort() });
      }),
      { numRuns: 100 },
    );
  });

  test('When a customer is erased, then their state is gone, held events forget them, and a snapshot restored names neither them nor their sessions', () => {
    const engine = engineWith(['1', '2']);
    engine.apply(event('view', '1', T0, { sessionId: 'gone-s', customerId: 'gone-cust' }));
    engine.apply(event('purchase', '2', T0 + 1, { sessionId: 'gone-s', customerId: 'gone-cust' }));
    engine.apply(event('add_to_cart', '1', T0 + 2, { sessionId: 'gone-s', customerId: 'gone-cust' }));
    engine.apply(event('view', '99', T0 + 3, { sessionId: 'gone-s', customerId: 'gone-cust' })); // held: no product 99 yet
    engine.apply(event('view', '2', T0 + 4, { sessionId: 'kept-s', customerId: 'kept-cust' }));
    expect(stringsOf(engine.snapshot())).toContain('gone-cust');

    eraseCustomer(engine, 'gone-cust', ['gone-s']);
    expect(customerModelState(engine, 'gone-cust')).toEqual({ recentlyViewed: [], affinities: [], purchases: [], dismissed: [] });
    const strings = stringsOf(engine.snapshot());
    expect(strings.filter((s) => s.includes('gone-'))).toEqual([]);
    expect(strings).toContain('kept-cust');
    const restored = ShopEngine.restore(engine.config, engine.snapshot())!;
    expect(restored.shoppers.slotIn(CUSTOMER_SPACE, 'gone-cust')).toBe(-1);
    expect(customerModelState(restored, 'kept-cust').recentlyViewed.map((v) => v.productId)).toEqual(['2']);
  });

  test('When an erased customer is active again before the next snapshot, then the snapshot keeps them with only their new state', () => {
    const engine = engineWith(['1', '2']);
    engine.apply(event('view', '1', T0, { sessionId: 's', customerId: 'back' }));
    eraseCustomer(engine, 'back', ['s']);
    engine.apply(event('view', '2', T0 + 1, { sessionId: 's2', customerId: 'back' }));
    const restored = ShopEngine.restore(engine.config, engine.snapshot())!;
    expect(customerModelState(restored, 'back').recentlyViewed.map((v) => v.productId)).toEqual(['2']);
  });

  test('When a customer is erased, then the shoppers counted leave them and their sessions out, before a snapshot and after one is restored, until their slots hold someone again', () => {
    const engine = engineWith(['1', '2']);
    engine.apply(event('view', '1', T0, { sessionId: 'gone-s1', customerId: 'gone' }));
    engine.apply(event('view', '2', T0, { sessionId: 'gone-s2', customerId: 'gone' }));
    engine.apply(event('view', '2', T0, { sessionId: 'kept-s', customerId: 'kept' }));
    const counts = (e: ShopEngine) => [e.erasedShoppers.held(), e.erasedShoppers.held(CUSTOMER_SPACE), e.erasedShoppers.held(SESSION_SPACE)];
    expect(counts(engine)).toEqual([5, 2, 3]);

    eraseCustomer(engine, 'gone', ['gone-s1', 'gone-s2']);

    expect(counts(engine)).toEqual([2, 1, 1]);
    const restored = ShopEngine.restore(engine.config, engine.snapshot())!;
    expect(counts(restored)).toEqual([2, 1, 1]);
    // Back again: counted again.
    restored.apply(event('view', '1', T0 + 1, { sessionId: 'gone-s1', customerId: 'gone' }));
    expect(counts(restored)).toEqual([4, 2, 2]);
  });
});
