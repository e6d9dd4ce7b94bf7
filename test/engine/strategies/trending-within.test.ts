// trendingWithin (a selective filter's trending) against trending itself under the same filter: the
// same items in the same order, whatever the top list's size, the events and the selection.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { SelectionConstraint } from '../../../src/engine/answer-shaping.js';
import { DenseSet } from '../../../src/engine/dense-set.js';
import { MatchSet } from '../../../src/engine/filters/match-set.js';
import { PickList } from '../../../src/engine/pick-list.js';
import { trending, trendingWithin } from '../../../src/engine/strategies/trending.js';
import { engineWith, event, HOUR, T0 } from '../fixtures.js';

describe('trendingWithin', () => {
  test('When random events, top list sizes and selections meet, then it offers what trending offers under the same filter, in the same order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 72 })), { maxLength: 120 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 29 }), { maxLength: 30 }),
        fc.uniqueArray(fc.integer({ min: 0, max: 29 }), { maxLength: 5 }),
        fc.integer({ min: 1, max: 24 }),
        (topListSize, events, selected, blocked, limit) => {
          // Products added in a shuffled id order: dense order is not product id order.
          const ids = Array.from({ length: 30 }, (_, i) => String(((i * 7) % 30) + 1));
          const engine = engineWith(ids, { topListSize });
          events.forEach(([product, hoursAgo], i) => engine.apply(event('purchase', String(product), T0 - hoursAgo * HOUR, { sessionId: `s${i}` })));
          const selection = new MatchSet(engine.catalog.size);
          for (const dense of selected) selection.add(dense);
          const answer = (producer: typeof trending) => {
            const block = new DenseSet();
            for (const dense of blocked) block.add(dense);
            const pick = new PickList(limit, engine.catalog, block, [new SelectionConstraint(selection)]);
            producer({ engine, shoppers: [], now: T0 }, pick);
            return { ids: pick.ids, scores: pick.scores };
          };
          expect(answer(trendingWithin(selection))).toEqual(answer(trending));
        },
      ),
      { numRuns: 300 },
    );
  });
});
