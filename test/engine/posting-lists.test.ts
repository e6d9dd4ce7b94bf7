// PostingLists against the plain reference it replaces: one Set of ids per feature.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PostingLists } from '../../src/engine/posting-lists.js';

describe('PostingLists', () => {
  test('When ids are added to and removed from features in any order, then each list holds the ids a Set would', () => {
    const op = fc.record({ add: fc.boolean(), feature: fc.nat(4), id: fc.nat(80) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
        const lists = new PostingLists();
        const reference: Set<number>[] = [];
        for (let f = 0; f < 5; f++) {
          expect(lists.addList()).toBe(f);
          reference.push(new Set());
        }
        for (const { add, feature, id } of ops) {
          if (add && !reference[feature]!.has(id)) {
            lists.add(feature, id);
            reference[feature]!.add(id);
          } else if (!add) {
            lists.remove(feature, id);
            reference[feature]!.delete(id);
          }
        }
        for (let f = 0; f < 5; f++) {
          expect(lists.size(f)).toBe(reference[f]!.size);
          const held = Array.from(lists.ids().subarray(lists.start(f), lists.start(f) + lists.size(f))).sort((a, b) => a - b);
          expect(held).toEqual([...reference[f]!].sort((a, b) => a - b));
        }
      }),
    );
  });

  test('When there are more lists than the first bookkeeping arrays hold, then every list keeps its own ids as the pool grows', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(199), fc.nat(1000)), { maxLength: 2000 }), (adds) => {
        const lists = new PostingLists();
        const reference: Set<number>[] = [];
        for (let f = 0; f < 200; f++) {
          lists.addList();
          reference.push(new Set());
        }
        for (const [feature, id] of adds) {
          if (reference[feature]!.has(id)) continue;
          lists.add(feature, id);
          reference[feature]!.add(id);
        }
        for (let f = 0; f < 200; f++) {
          const held = Array.from(lists.ids().subarray(lists.start(f), lists.start(f) + lists.size(f))).sort((a, b) => a - b);
          expect(held).toEqual([...reference[f]!].sort((a, b) => a - b));
        }
      }),
      { numRuns: 50 },
    );
  });
});
