import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { SlotBlocks } from '../../src/engine/slot-blocks.js';

// Operations on per-slot lists, as the models use them: append (growing the block), drop the
// oldest, drop an entry anywhere, and a new key taking a slot over (the list is cleared).
type Op = { kind: 'append'; key: number; value: number } | { kind: 'shift'; key: number } | { kind: 'remove'; key: number; at: number } | { kind: 'touch'; key: number };

const ops = (keys: number) =>
  fc.array(
    fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('append' as const), key: fc.nat(keys - 1), value: fc.integer({ min: -1000, max: 1000 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('shift' as const), key: fc.nat(keys - 1) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), key: fc.nat(keys - 1), at: fc.nat(20) }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('touch' as const), key: fc.nat(keys - 1) }) },
    ),
    { maxLength: 400 },
  );

/** The obviously correct version: an array per key, gone when the key loses its slot. */
class ReferenceLists {
  readonly lists = new Map<number, number[]>();
  list(key: number): number[] {
    let list = this.lists.get(key);
    if (list === undefined) this.lists.set(key, (list = []));
    return list;
  }
}

function listOf(blocks: SlotBlocks<[Int32Array, Float64Array]>, slot: number): number[][] {
  const [ids, values] = blocks.lanes;
  const start = blocks.start(slot);
  return Array.from({ length: blocks.size(slot) }, (_, k) => [ids[start + k]!, values[start + k]!]);
}

describe('SlotBlocks', () => {
  test('When lists grow, shrink and lose their slots to new keys, then every slot holds what plain arrays hold, and a restore holds the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 20 }), ops(10), (maxSlots, maxEntries, stream) => {
        const slots = new LruSlots(maxSlots);
        const blocks = new SlotBlocks(slots, maxEntries, [Int32Array, Float64Array]);
        const reference = new ReferenceLists();
        const live = new Set<number>();
        const touch = (key: number) => {
          if (!live.has(key) && live.size === maxSlots) {
            const evicted = [...live][0]!;
            live.delete(evicted);
            reference.lists.delete(evicted);
          }
          live.delete(key);
          live.add(key);
          return slots.touch(String(key));
        };
        for (const op of stream) {
          const slot = touch(op.key);
          const list = reference.list(op.key);
          const size = blocks.size(slot);
          if (op.kind === 'append' && size < maxEntries) {
            blocks.reserve(slot, size + 1);
            blocks.lanes[0][blocks.start(slot) + size] = op.value;
            blocks.lanes[1][blocks.start(slot) + size] = op.value / 8;
            blocks.setSize(slot, size + 1);
            list.push(op.value);
          } else if ((op.kind === 'shift' || op.kind === 'remove') && size > 0) {
            const at = op.kind === 'shift' ? 0 : op.at % size;
            blocks.removeAt(slot, at);
            list.splice(at, 1);
          }
        }
        const restored = new SlotBlocks(new LruSlots(maxSlots), maxEntries, [Int32Array, Float64Array]);
        restored.restore(blocks.snapshot());
        for (const key of live) {
          const slot = slots.slotOf(String(key));
          const expected = reference.list(key).map((value) => [value, value / 8]);
          expect(listOf(blocks, slot)).toEqual(expected);
          expect(listOf(restored, slot)).toEqual(expected);
        }
        // Memory follows what is held: no more pool entries than twice the live entries plus freed blocks of each size.
        const held = [...live].reduce((sum, key) => sum + reference.list(key).length, 0);
        expect(blocks.poolEntries).toBeLessThanOrEqual(Math.max(maxSlots * maxEntries, 2 * held + maxSlots * 2 * maxEntries));
      }),
    );
  });

  test('When a slot is handed to a new key, then its block is reused rather than the pool growing', () => {
    const slots = new LruSlots(2);
    const blocks = new SlotBlocks(slots, 8, [Int32Array]);
    for (let round = 0; round < 50; round++) {
      const slot = slots.touch(`k${round}`);
      for (let k = 0; k < 8; k++) {
        blocks.reserve(slot, k + 1);
        blocks.lanes[0][blocks.start(slot) + k] = k;
        blocks.setSize(slot, k + 1);
      }
    }
    // The first key takes blocks of 2, 4 and 8; the second reuses the freed 2 and 4 and adds an 8;
    // every later key reuses freed blocks: 2 + 4 + 8 + 8, however many keys come and go.
    expect(blocks.poolEntries).toBe(22);
  });

  test('When a list would pass its maximum, then reserve refuses', () => {
    const blocks = new SlotBlocks(new LruSlots(1), 3, [Int32Array]);
    expect(() => blocks.reserve(0, 4)).toThrow(RangeError);
  });

  test('When a list holds more than 255 entries, then its size and entries survive a snapshot (sizes are 16-bit)', () => {
    const blocks = new SlotBlocks(new LruSlots(2), 600, [Int32Array]);
    const slots = blocks.slots;
    const slot = slots.touch('buyer');
    for (let k = 0; k < 500; k++) {
      blocks.reserve(slot, k + 1);
      blocks.lanes[0][blocks.start(slot) + k] = 7 * k;
      blocks.setSize(slot, k + 1);
    }
    const restored = new SlotBlocks(new LruSlots(2), 600, [Int32Array]);
    restored.restore(blocks.snapshot());
    expect(restored.size(slot)).toBe(500);
    expect(Array.from(restored.lanes[0].subarray(restored.start(slot), restored.start(slot) + 500))).toEqual(Array.from({ length: 500 }, (_, k) => 7 * k));
  });
});
