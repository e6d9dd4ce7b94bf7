// A strategy's last resort (trending ranking every scored product and walking the catalog,
// collection-popular scanning its collections' members) looks only at the products the pick list's
// constraints leave when they are few (PickList.within): the same items in the same order as the
// full walk under the same constraints, whatever the top list's size, the events and the selection.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SelectionConstraint, type CandidateConstraint } from '../../../src/engine/answer-shaping.js';
import { DenseSet } from '../../../src/engine/dense-set.js';
import { MatchSet } from '../../../src/engine/filters/match-set.js';
import { PickList } from '../../../src/engine/pick-list.js';
import type { Producer } from '../../../src/engine/strategies/context.js';
import { collectionPopular } from '../../../src/engine/strategies/collection-popular.js';
import { trending } from '../../../src/engine/strategies/trending.js';
import { engineWith, event, HOUR, product, T0 } from '../fixtures.js';

/** The same constraint without a set: walks cannot narrow by it. */
function withoutSet(constraint: CandidateConstraint): CandidateConstraint {
  return { admits: (id) => constraint.admits(id), picked: (id) => constraint.picked(id) };
}

describe('walks within the pick list', () => {
  test('When random events, top list sizes and selections meet, then trending and collection-popular offer what they offer without narrowing, in the same order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 72 })), { maxLength: 120 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 29 }), { maxLength: 30 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 29 }), { maxLength: 5 }),
        fc.integer({ min: 1, max: 24 }),
        (topListSize, events, selected, blocked, limit) => {
          // Products added in a shuffled id order: dense order is not product id order. Two collections overlap.
          const ids = Array.from({ length: 30 }, (_, i) => String(((i * 7) % 30) + 1));
          const products = ids.map((id) => product(id, { collections: [Number(id) % 3 === 0 ? 'c' : 'd', ...(Number(id) % 4 === 0 ? ['c'] : [])] }));
          const engine = engineWith(products, { topListSize });
          events.forEach(([p, hoursAgo], i) => engine.apply(event('purchase', String(p), T0 - hoursAgo * HOUR, { sessionId: `s${i}` })));
          const selection = new MatchSet(engine.catalog.size);
          for (const dense of selected) selection.add(dense);
          const answer = (producer: Producer, constraint: CandidateConstraint, collectionId?: string) => {
            const block = new DenseSet();
            for (const dense of blocked) block.add(dense);
            const pick = new PickList(limit, engine.catalog, block, [constraint]);
            producer({ engine, shoppers: [], now: T0, ...(collectionId === undefined ? {} : { collectionId }) }, pick);
            return { ids: pick.ids, scores: pick.scores, within: pick.within() };
          };
          const narrowed = answer(trending, new SelectionConstraint(selection));
          const full = answer(trending, withoutSet(new SelectionConstraint(selection)));
          expect(narrowed.within?.count()).toBe(selected.length);
          expect(full.within).toBeUndefined();
          expect({ ids: narrowed.ids, scores: narrowed.scores }).toEqual({ ids: full.ids, scores: full.scores });
          const inCollection = answer(collectionPopular, new SelectionConstraint(selection), 'c');
          const inCollectionFull = answer(collectionPopular, withoutSet(new SelectionConstraint(selection)), 'c');
          expect({ ids: inCollection.ids, scores: inCollection.scores }).toEqual({ ids: inCollectionFull.ids, scores: inCollectionFull.scores });
        },
      ),
      { numRuns: 300 },
    );
  });
});
