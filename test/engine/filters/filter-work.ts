// Counts the work filters do, as the products they touch: ids written into sets (a selection over
// the catalog writes one per product it holds) and products tested one at a time; and a shop to
// count it on.
import { CandidateTest } from '../../../src/engine/filters/candidate-test.js';
import { MatchSet } from '../../../src/engine/filters/match-set.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { engineWith, event, HOUR, product, T0 } from '../fixtures.js';

export interface FilterWork {
  /** Ids written into sets since the last reset. */
  readonly setEntries: number;
  /** Products tested one at a time since the last reset. */
  readonly tests: number;
  reset(): void;
  restore(): void;
}

/** Counts until restore(): plain counters (a spy would keep every call's arguments). */
export function countFilterWork(): FilterWork {
  const add = MatchSet.prototype.add;
  const matches = CandidateTest.prototype.matches;
  let setEntries = 0;
  let tests = 0;
  MatchSet.prototype.add = function (this: MatchSet, id: number): void {
    setEntries++;
    add.call(this, id);
  };
  CandidateTest.prototype.matches = function (this: CandidateTest, id: number): boolean {
    tests++;
    return matches.call(this, id);
  };
  return {
    get setEntries() {
      return setEntries;
    },
    get tests() {
      return tests;
    },
    reset() {
      setEntries = 0;
      tests = 0;
    },
    restore() {
      MatchSet.prototype.add = add;
      CandidateTest.prototype.matches = matches;
    },
  };
}

/** `NOT same:tag OR NOT same:tag OR … same:tag`, 504 characters: every catalog product, at 32 NOTs' cost when selected as a set. */
export const REPEATED_RELATIVE = `${'NOT same:tag OR '.repeat(31)}same:tag`;

/**
 * A shop of `count` products (ids 1 … count), two tags each out of 60, a vendor out of 12 and a
 * collection out of 3 (c0, c1, c2), with purchases pairing the first 200 products in baskets of
 * three over the last days before T0: every strategy of a product's chain has candidates.
 */
export function busyStore(count: number): ShopEngine {
  const engine = engineWith(Array.from({ length: count }, (_, i) => product(String(i + 1), { tags: [`t${i % 60}`, `t${(i * 7 + 3) % 60}`], vendor: `v${i % 12}`, collections: [`c${i % 3}`] })));
  for (let basket = 0; basket < 400; basket++) {
    for (let k = 0; k < 3; k++) engine.apply(event('purchase', String(((basket * 3 + k * 17) % 200) + 1), T0 - (basket % 72) * HOUR, { sessionId: `b${basket}` }));
  }
  return engine;
}
