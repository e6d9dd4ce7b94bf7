// SlotIdLists against the plain reference: an array per shopper key of distinct ids, oldest
// dropped past the limit, gone when the key loses its slot.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { SlotIdLists } from '../../src/engine/slot-id-lists.js';

describe('SlotIdLists', () => {
  test('When ids are added for shoppers who come and go, then each list holds what a plain array would, and a restore holds the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 12 }), fc.array(fc.tuple(fc.nat(7), fc.nat(20)), { maxLength: 400 }), (maxSlots, perSlot, adds) => {
        const slots = new LruSlots(maxSlots);
        const lists = new SlotIdLists(slots, perSlot);
        const reference = new Map<number, number[]>();
        for (const [key, id] of adds) {
          if (!reference.has(key) && reference.size === maxSlots) reference.delete(reference.keys().next().value!);
          const list = reference.get(key) ?? [];
          reference.delete(key);
          reference.set(key, list); // most recently written last, as LruSlots evicts
          if (!list.includes(id)) {
            list.push(id);
            if (list.length > perSlot) list.shift();
          }
          lists.add(slots.touch(String(key)), id);
        }
        const restoredSlots = new LruSlots(maxSlots);
        restoredSlots.restore(slots.snapshot());
        const restored = new SlotIdLists(restoredSlots, perSlot);
        restored.restore(lists.snapshot());
        for (const [key, expected] of reference) {
          const slot = slots.slotOf(String(key));
          const held: number[] = [];
          lists.forEach(slot, (id) => held.push(id));
          expect(held).toEqual(expected);
          const back: number[] = [];
          restored.forEach(restoredSlots.slotOf(String(key)), (id) => back.push(id));
          expect(back).toEqual(expected);
        }
      }),
    );
  });

  test('When a slot has no list, then forEach calls nothing', () => {
    const lists = new SlotIdLists(new LruSlots(4), 3);
    const held: number[] = [];
    lists.forEach(-1, (id) => held.push(id));
    lists.forEach(2, (id) => held.push(id));
    expect(held).toEqual([]);
  });
});
