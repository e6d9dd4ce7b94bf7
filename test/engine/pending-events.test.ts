import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { EngineEvent } from '../../src/engine/event.js';
import { PendingEvents } from '../../src/engine/pending-events.js';
import { ReferencePendingEvents } from '../reference/pending-events.js';
import { event, T0 } from './fixtures.js';

/** An event as PendingEvents gives it back: only the fields the engine reads, the order id as a string. */
function normalized(e: EngineEvent): EngineEvent {
  const orderId = e.metadata?.orderId;
  return {
    type: e.type,
    productId: e.productId,
    sessionId: e.sessionId,
    timestamp: e.timestamp,
    ...(e.customerId !== undefined ? { customerId: e.customerId } : {}),
    // Past 128 characters an order id names no order (engine/event.ts): it is not kept.
    ...((typeof orderId === 'string' || typeof orderId === 'number') && String(orderId).length <= 128 ? { metadata: { orderId: String(orderId) } } : {}),
  };
}

const arbitraryEvent = fc.record({
  type: fc.constantFrom('impression', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'view' as const),
  productId: fc.integer({ min: 0, max: 11 }).map((i) => `p${i}`),
  sessionId: fc.constantFrom('s1', 's2'),
  customerId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
  orderId: fc.option(fc.oneof(fc.constantFrom('o1', '', 'o'.repeat(128), 'o'.repeat(129)), fc.integer({ min: 0, max: 3 })), { nil: undefined }),
  timestamp: fc.integer({ min: T0, max: T0 + 1000 }),
}).map(({ customerId, orderId, ...rest }): EngineEvent => ({
  ...rest,
  ...(customerId !== undefined ? { customerId } : {}),
  ...(orderId !== undefined ? { metadata: { orderId, position: 3 } } : {}),
}));

/** Adds, or (one time in five) takes an id's events. */
const operation = fc.oneof(
  { weight: 4, arbitrary: arbitraryEvent.map((e) => ({ add: e })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 11 }).map((i) => ({ take: `p${i}` })) },
);

describe('PendingEvents', () => {
  test('When events are added and taken in any order, then it holds and gives back the same events as a Map-of-lists reference, within both bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 5 }), fc.array(operation, { maxLength: 300 }), (maxEvents, perId, operations) => {
        const pending = new PendingEvents(maxEvents, perId);
        const reference = new ReferencePendingEvents(maxEvents, perId);
        for (const op of operations) {
          if ('add' in op) {
            pending.add(op.add);
            reference.add(op.add);
          } else {
            expect(pending.take(op.take)).toEqual(reference.take(op.take).map(normalized));
          }
          expect(pending.size).toBe(reference.size);
          expect(pending.idCount).toBe(reference.byId.size);
          expect(pending.size).toBeLessThanOrEqual(maxEvents);
        }
        // A restored copy holds the same events in the same recency (it evicts alike from here on).
        const copy = new PendingEvents(maxEvents, perId);
        copy.restore(structuredClone(pending.snapshot()));
        for (const e of [event('view', 'p99', T0), event('view', 'p98', T0)]) {
          copy.add(e);
          reference.add(e);
        }
        for (const id of [...Array(12).keys()].map((i) => `p${i}`).concat('p98', 'p99')) {
          expect(copy.take(id)).toEqual(reference.take(id).map(normalized));
        }
      }),
    );
  });

  test('When one id is named more often than its bound, then only its newest events are kept, oldest first', () => {
    const pending = new PendingEvents(100, 3);
    for (let i = 0; i < 10; i++) pending.add(event('view', 'x', T0 + i));
    expect(pending.take('x').map((e) => e.timestamp)).toEqual([T0 + 7, T0 + 8, T0 + 9]);
    expect(pending.size).toBe(0);
    expect(pending.take('x')).toEqual([]);
  });

  test('When more events arrive than the total bound, then the least recently named ids are dropped whole', () => {
    const pending = new PendingEvents(4, 2);
    pending.add(event('view', 'a', T0));
    pending.add(event('view', 'a', T0 + 1));
    pending.add(event('view', 'b', T0 + 2));
    pending.add(event('view', 'a', T0 + 3)); // a named again: b is now the least recent
    pending.add(event('view', 'c', T0 + 4));
    pending.add(event('view', 'd', T0 + 5));
    expect(pending.take('b')).toEqual([]);
    expect(pending.take('a').map((e) => e.timestamp)).toEqual([T0 + 1, T0 + 3]);
    expect(pending.size).toBe(2);
  });

  test('When a million distinct ids are named, then it holds its bound of events and ids', () => {
    const pending = new PendingEvents(1000, 32);
    for (let i = 0; i < 1_000_000; i++) pending.add(event('view', `junk-${i}`, T0));
    expect(pending.size).toBe(1000);
    expect(pending.idCount).toBe(1000);
    expect(pending.take('junk-999999')).toHaveLength(1);
    expect(pending.take('junk-0')).toEqual([]);
  });
});
