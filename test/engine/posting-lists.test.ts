// PostingLists against the plain reference it replaces: one Set of ids per feature.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PostingLists } from '../../src/engine/posting-lists.js';

describe('PostingLists', () => {
  test('When ids are added to and removed from features in any order, then each list holds the ids a Set would', () => {
    const op = fc.record({ add: fc.boolean(), feature: fc.nat(4), id: fc.nat(40) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
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
          const held = Array.from(lists.ids(f).subarray(0, lists.size(f))).sort((a, b) => a - b);
          expect(held).toEqual([...reference[f]!].sort((a, b) => a - b));
        }
      }),
    );
  });
});
