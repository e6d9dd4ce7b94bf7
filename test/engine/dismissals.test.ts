import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Dismissals } from '../../src/engine/dismissals.js';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { ReferenceDismissals } from '../reference/dismissals.js';
import { DAY, T0 } from './fixtures.js';

const slots = new LruSlots(100);
const slot = (key: string) => slots.touch(key);

function hiddenFor(dismissals: Dismissals, slot: number, now: number): number[] {
  const into: number[] = [];
  dismissals.hiddenFor(slot, now, (id) => into.push(id));
  return into;
}

function hidden(dismissals: Dismissals, key: string, now: number): number[] {
  return hiddenFor(dismissals, slots.slotOf(key), now).sort((a, b) => a - b);
}

describe('Dismissals', () => {
  test('When a shopper dismisses a product, then it is hidden for that shopper only, until the ttl passes', () => {
    const dismissals = new Dismissals(slots, 30 * DAY);
    dismissals.record(slot('c:1'), 7, T0);
    expect(hidden(dismissals, 'c:1', T0)).toEqual([7]);
    expect(hidden(dismissals, 'c:1', T0 + 30 * DAY - 1)).toEqual([7]);
    expect(hidden(dismissals, 'c:1', T0 + 30 * DAY)).toEqual([]);
    expect(hidden(dismissals, 'c:2', T0)).toEqual([]);
    expect(hidden(dismissals, 's:1', T0)).toEqual([]);
  });

  test('When a product is dismissed again later, then the ttl runs from the latest dismissal', () => {
    const dismissals = new Dismissals(slots, 30 * DAY);
    dismissals.record(slot('c:1'), 7, T0 + 20 * DAY);
    dismissals.record(slot('c:1'), 7, T0); // older, arriving late: changes nothing
    expect(hidden(dismissals, 'c:1', T0 + 40 * DAY)).toEqual([7]);
    expect(hidden(dismissals, 'c:1', T0 + 50 * DAY)).toEqual([]);
  });

  test('When a shopper dismisses more than 200 products, then the earliest recorded go first', () => {
    const dismissals = new Dismissals(slots, 30 * DAY);
    for (let id = 0; id < 205; id++) dismissals.record(slot('c:1'), id, T0 + id);
    const now = hidden(dismissals, 'c:1', T0 + 205);
    expect(now).toHaveLength(200);
    expect(now[0]).toBe(5);
  });

  test('When dismissals arrive for shoppers in a small table, then each hides what a Map per shopper hides, in the same order, and so does each restored copy', () => {
    // Few shoppers, days and (half the time) ids, so that repeats at the same and at other times and
    // late arrivals happen; a flood of up to 260 ids for the first shopper first, so that the cap of
    // 200 is passed. Three slots for up to five shoppers, so that slots are handed to new shoppers.
    const TTL = 5 * DAY;
    const run = fc.integer({ min: 1, max: 5 }).chain((shoppers) =>
      fc.tuple(
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: shoppers - 1 }), fc.oneof(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 255 })), fc.integer({ min: 0, max: 12 })),
          { maxLength: 600, size: 'max' },
        ),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 260 }),
      ),
    );
    fc.assert(
      fc.property(run, ([random, nowDay, flood]) => {
        const events = [...Array.from({ length: flood }, (_, id) => [0, id, id % 13] as const), ...random];
        const table = new LruSlots(3);
        const dismissals = new Dismissals(table, TTL);
        const reference = new ReferenceDismissals(table, TTL, 200);
        for (const [shopper, id, day] of events) {
          const at = table.touch(`c:${shopper}`);
          dismissals.record(at, id, T0 + day * DAY);
          reference.record(at, id, T0 + day * DAY);
        }
        const now = T0 + nowDay * DAY;
        const restored = (snapshot: ReturnType<Dismissals['snapshot']>) => {
          const copy = new Dismissals(table, TTL);
          copy.restore(snapshot);
          return copy;
        };
        const fromBlocks = restored(dismissals.snapshot());
        const fromFlat = restored(reference.flatSnapshot()); // the layout written before the blocks
        for (let s = -1; s < 3; s++) {
          const expected = reference.hidden(s, now);
          expect(hiddenFor(dismissals, s, now)).toEqual(expected);
          expect(hiddenFor(fromBlocks, s, now)).toEqual(expected);
          expect(hiddenFor(fromFlat, s, now)).toEqual(expected);
        }
      }),
      { numRuns: 200 },
    );
  });
});
