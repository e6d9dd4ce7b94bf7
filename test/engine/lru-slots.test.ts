import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LruSlots } from '../../src/engine/lru-slots.js';
import { ReferenceLru, ReferencePooledLru } from '../reference/shopper-state.js';

describe('LruSlots', () => {
  test('When keys are written, then the table holds the same keys in the same recency order as a Map LRU', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 15 }), { maxLength: 200 }), (max, writes) => {
        const slots = new LruSlots(max);
        const reference = new ReferenceLru(max, () => 0);
        const reused: number[] = [];
        slots.onReuse((slot) => reused.push(slot));
        for (const k of writes) {
          const slot = slots.touch(`k${k}`);
          reference.touch(`k${k}`);
          expect(slots.keyOf(slot)).toBe(`k${k}`);
        }
        expect([...slots.oldestFirst()].map((slot) => slots.keyOf(slot))).toEqual([...reference.entries.keys()]);
        expect(slots.size).toBe(reference.entries.size);
        for (let k = 0; k < 16; k++) expect(slots.slotOf(`k${k}`) >= 0).toBe(reference.entries.has(`k${k}`));
        // A slot is handed to a new key only once all `max` are in use.
        expect(reused.every((slot) => slot < max)).toBe(true);
      }),
    );
  });

  test('When ids are written in key spaces, then the table equals a Map LRU of the whole keys, read by space and id or by whole key, and so does its restored copy', () => {
    const prefixes = ['c:', 's:', 'o:'];
    const write = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.constantFrom('1', '2', 'x', 's:1', 'c:', ''), fc.boolean());
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(write, { maxLength: 120 }), (max, writes) => {
        const slots = new LruSlots(max, prefixes);
        const reference = new ReferenceLru(max, () => 0);
        for (const [space, id, whole] of writes) {
          const key = prefixes[space] + id;
          // Half the writes name the whole key: the prefix must find the same space.
          const slot = whole ? slots.touch(key) : slots.touchIn(space, id);
          reference.touch(key);
          expect(slots.keyOf(slot)).toBe(key);
        }
        const copy = new LruSlots(max, prefixes);
        copy.restore(slots.snapshot());
        for (const table of [slots, copy]) {
          expect([...table.oldestFirst()].map((slot) => table.keyOf(slot))).toEqual([...reference.entries.keys()]);
          expect(table.size).toBe(reference.entries.size);
          for (let space = 0; space < 3; space++) {
            for (const id of ['1', '2', 'x', 's:1', 'c:', '']) {
              const key = prefixes[space] + id;
              expect(table.slotIn(space, id) >= 0).toBe(reference.entries.has(key));
              expect(table.slotOf(key)).toBe(table.slotIn(space, id));
              if (table.slotIn(space, id) >= 0) expect(table.slotIn(space, id)).toBe(slots.slotIn(space, id));
            }
          }
        }
      }),
    );
  });

  test('When key spaces are declared, then a prefix that starts another is refused, and a whole key of no space is never found and cannot be written', () => {
    expect(() => new LruSlots(4, ['c:', 'c:x'])).toThrow(/starts/);
    const slots = new LruSlots(4, ['c:', 's:']);
    expect(slots.slotOf('o:1')).toBe(-1);
    expect(() => slots.touch('o:1')).toThrow(/none of the prefixes/);
    expect(() => new LruSlots(4, ['c:']).restore(slots.snapshot())).not.toThrow();
    slots.touchIn(1, 'a');
    expect(() => new LruSlots(4, ['c:']).restore(slots.snapshot())).toThrow(/none of the prefixes/);
  });

  test('When a snapshot holds whole keys (written before key spaces), then it restores to the same table as one of ids and spaces', () => {
    const prefixes = ['c:', 's:'];
    const write = fc.tuple(fc.integer({ min: 0, max: 1 }), fc.constantFrom('1', '2', 'x', 'c:', ''));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(write, { maxLength: 60 }), (max, writes) => {
        const slots = new LruSlots(max, prefixes);
        for (const [space, id] of writes) slots.touchIn(space, id);
        const snapshot = slots.snapshot();
        const wholeKeys = { keys: Array.from({ length: slots.size }, (_, slot) => slots.keyOf(slot)), order: snapshot.order };
        const fromSpaces = new LruSlots(max, prefixes);
        fromSpaces.restore(snapshot);
        const fromKeys = new LruSlots(max, prefixes);
        fromKeys.restore(wholeKeys);
        for (const table of [fromSpaces, fromKeys]) {
          expect([...table.oldestFirst()].map((slot) => table.keyOf(slot))).toEqual([...slots.oldestFirst()].map((slot) => slots.keyOf(slot)));
          for (let space = 0; space < 2; space++) for (const id of ['1', '2', 'x', 'c:', '']) expect(table.slotIn(space, id)).toBe(slots.slotIn(space, id));
        }
      }),
    );
  });

  test('When a snapshot was taken with the key spaces in another order, then each id goes back to the space of its prefix', () => {
    const slots = new LruSlots(4, ['c:', 's:']);
    slots.touchIn(0, 'a');
    slots.touchIn(1, 'a');
    const swapped = new LruSlots(4, ['s:', 'c:']);
    swapped.restore(slots.snapshot());
    expect(swapped.slotIn(1, 'a')).toBe(slots.slotIn(0, 'a'));
    expect(swapped.slotIn(0, 'a')).toBe(slots.slotIn(1, 'a'));
    expect(swapped.slotOf('c:a')).toBe(slots.slotOf('c:a'));
  });

  test('When the bound is passed, then the least recently written key is evicted and reading does not count as a write', () => {
    const slots = new LruSlots(2);
    const a = slots.touch('a');
    slots.touch('b');
    slots.touch('a');
    slots.slotOf('b');
    expect(slots.touch('c')).not.toBe(a);
    expect(slots.slotOf('b')).toBe(-1);
    expect(slots.slotOf('a')).toBe(a);
  });

  test('When a table is restored from a snapshot, then it has the same slots and evicts in the same order', () => {
    const slots = new LruSlots(3);
    for (const key of ['a', 'b', 'c', 'a']) slots.touch(key);
    const copy = new LruSlots(3);
    copy.restore(slots.snapshot());
    for (const key of ['a', 'b', 'c']) expect(copy.slotOf(key)).toBe(slots.slotOf(key));
    expect(copy.touch('d')).toBe(slots.touch('d'));
    expect(copy.slotOf('b')).toBe(-1);
  });

  test('When each key space has its own pool, then the table equals a Map LRU per space, read by space and id, and so does its restored copy', () => {
    const prefixes = ['c:', 's:'];
    const write = fc.tuple(fc.integer({ min: 0, max: 1 }), fc.constantFrom('1', '2', '3', 'x', ''));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.array(write, { maxLength: 120 }), (customers, sessions, writes) => {
        const slots = new LruSlots([customers, sessions], prefixes);
        const reference = new ReferencePooledLru(prefixes, [customers, sessions], () => 0);
        const reused: number[] = [];
        slots.onReuse((slot) => reused.push(slot));
        for (const [space, id] of writes) {
          const slot = slots.touchIn(space, id);
          reference.touch(prefixes[space] + id);
          expect(slots.keyOf(slot)).toBe(prefixes[space] + id);
        }
        const copy = new LruSlots([customers, sessions], prefixes);
        copy.restore(slots.snapshot());
        for (const table of [slots, copy]) {
          expect([...table.oldestFirst()].map((slot) => table.keyOf(slot))).toEqual(reference.keys());
          expect(table.size).toBe(reference.size);
          for (let space = 0; space < 2; space++) {
            expect(table.sizeOf(space)).toBe(reference.pools[space]!.size);
            for (const id of ['1', '2', '3', 'x', '']) expect(table.slotIn(space, id) >= 0).toBe(reference.get(prefixes[space] + id) !== undefined);
          }
        }
        // Slots stay dense: one is handed to a new key only once its pool is full.
        expect(reused.every((slot) => slot < customers + sessions)).toBe(true);
      }),
    );
  });

  test('When a snapshot of one shared pool is restored into pools of their own, then keys keep their slots and an over-full pool gives its oldest to the others, as the reference does', () => {
    const prefixes = ['c:', 's:'];
    const write = fc.tuple(fc.integer({ min: 0, max: 1 }), fc.constantFrom('1', '2', '3', '4', 'x', 'y'));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.array(write, { maxLength: 60 }), fc.array(write, { maxLength: 60 }), (customers, sessions, before, after) => {
        const shared = new LruSlots(customers + sessions, prefixes);
        const seed = new ReferenceLru(customers + sessions, () => 0);
        for (const [space, id] of before) {
          shared.touchIn(space, id);
          seed.touch(prefixes[space] + id);
        }
        const pooled = new LruSlots([customers, sessions], prefixes);
        pooled.restore(shared.snapshot());
        for (let slot = 0; slot < shared.size; slot++) expect(pooled.keyOf(slot)).toBe(shared.keyOf(slot));
        // The reference seeded with the shared table's keys, oldest first: each pool keeps that order.
        const reference = new ReferencePooledLru(prefixes, [customers, sessions], () => 0);
        for (const key of seed.entries.keys()) reference.pools[prefixes.indexOf(key.slice(0, 2))]!.set(key, 0);
        for (const [space, id] of after) {
          const slot = pooled.touchIn(space, id);
          reference.touch(prefixes[space] + id);
          expect(pooled.keyOf(slot)).toBe(prefixes[space] + id);
          expect(pooled.size).toBeLessThanOrEqual(customers + sessions);
        }
        expect([...pooled.oldestFirst()].map((slot) => pooled.keyOf(slot))).toEqual(reference.keys());
      }),
    );
  });

  test('When pools are given, then their capacities must be positive and one per key space', () => {
    expect(() => new LruSlots([2, 0], ['c:', 's:'])).toThrow(/positive integer/);
    expect(() => new LruSlots([2], ['c:', 's:'])).toThrow(/1 pool capacities for 2 key spaces/);
    expect(new LruSlots([2, 3], ['c:', 's:']).maxSlots).toBe(5);
  });

  test('When a table of 200k shoppers (the default cap) is restored, then every key keeps its slot', () => {
    const slots = new LruSlots(200_000);
    for (let i = 0; i < 200_000; i++) slots.touch(`s:${i}`);
    const copy = new LruSlots(200_000);
    copy.restore(slots.snapshot());
    expect(copy.size).toBe(200_000);
    for (const i of [0, 123_456, 199_999]) expect(copy.slotOf(`s:${i}`)).toBe(slots.slotOf(`s:${i}`));
  });
});
