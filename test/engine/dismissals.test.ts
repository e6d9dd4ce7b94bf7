import { describe, expect, test } from 'vitest';
import { Dismissals } from '../../src/engine/dismissals.js';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { DAY, T0 } from './fixtures.js';

const slots = new LruSlots(100);
const slot = (key: string) => slots.touch(key);

function hidden(dismissals: Dismissals, key: string, now: number): number[] {
  const into: number[] = [];
  dismissals.hiddenFor(slots.slotOf(key), now, (id) => into.push(id));
  return into.sort((a, b) => a - b);
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
});
