// What a shop's rules cost an answer, counted as products touched (filter-work.ts): matching tests
// the context product alone, filters and hides test the candidates the answer looks at, and a walk
// the constraints leave empty looks at nothing, whatever the 100 rules hold.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { TESTS_BEFORE_SET } from '../../../src/engine/filters/relative-selection.js';
import { MAX_RULES_PER_SHOP, type Rule } from '../../../src/engine/rules/rule.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { ask, idsOf, T0 } from '../fixtures.js';
import { busyStore, countFilterWork, REPEATED_RELATIVE, type FilterWork } from '../filters/filter-work.js';

const CATALOG = 3000;

function rule(id: string, when: Rule['when'], then: Rule['then']): Rule {
  return { id, enabled: true, when, then, updatedAt: 0 };
}

/** The entries of the posting lists of `productId`'s tags: what making the set of `same:tag` for it reads. */
function tagPostings(engine: ShopEngine, productId: string): number {
  const tags = engine.catalog.get(productId)!.tags;
  let count = 0;
  for (let dense = 0; dense < engine.catalog.size; dense++) for (const tag of engine.catalog.product(dense)?.tags ?? []) if (tags.includes(tag)) count++;
  return count;
}

describe('rule cost', () => {
  let work: FilterWork | undefined;
  afterEach(() => {
    work?.restore();
    vi.restoreAllMocks();
  });

  test('When 100 rules hold the 504-character relative expression as context, filter, hide and 8 boosts, then an answer touches a few hundred products, not the catalog', () => {
    const engine = busyStore(CATALOG);
    const expression = REPEATED_RELATIVE;
    for (let r = 0; r < MAX_RULES_PER_SHOP; r++) {
      const id = `r${String(r).padStart(3, '0')}`;
      engine.setRule(id, rule(id, { context: expression }, { filter: expression, hide: expression, boost: Array.from({ length: 8 }, () => ({ filter: expression, factor: 2 })) }));
    }
    ask(engine, { productId: '1' }, T0); // compiles the rules; makes the set of all catalog products once
    work = countFilterWork();
    for (const productId of ['2', '57', '150', '2999']) {
      work.reset();
      // The expression selects every product: the hide leaves nothing.
      expect(idsOf(ask(engine, { productId }, T0))).toEqual([]);
      // The rules' one context filter tests the context product once; their one filter and hide
      // (one selection) test candidates until TESTS_BEFORE_SET, and the walk past them makes its set
      // for this product once: the posting lists of its tags.
      expect(work.tests).toBeLessThanOrEqual(1 + TESTS_BEFORE_SET);
      expect(work.setEntries).toBeLessThanOrEqual(tagPostings(engine, productId));
    }
  });

  test('When a rule matches on a relative context filter, then matching tests the context product alone', () => {
    const engine = busyStore(CATALOG);
    engine.setRule('pdp', rule('pdp', { context: 'NOT same:vendor OR price:0.5x..2x' }, { boost: [{ filter: 'tag:t1', factor: 2 }] }));
    ask(engine, { productId: '1' }, T0);
    work = countFilterWork();
    ask(engine, { productId: '2' }, T0);
    expect(work.setEntries).toBe(0);
    expect(work.tests).toBe(1);
  });

  test('When a rule hides every product, then no strategy walks the catalog, a collection or every scored product to fill the answer', () => {
    const engine = busyStore(CATALOG);
    engine.setRule('none', rule('none', {}, { hide: 'available:true OR available:false' }));
    const ordered = vi.spyOn(engine.catalog, 'ordered');
    const members = vi.spyOn(engine.catalog, 'orderedMembers');
    const positive = vi.spyOn(engine.trending, 'positive');
    for (const strategy of ['trending', 'bought-together', 'collection-popular'] as const) {
      expect(ask(engine, { productId: '5', strategy, collectionId: 'c1' }, T0).items).toEqual([]);
    }
    expect(ordered).not.toHaveBeenCalled();
    expect(members).not.toHaveBeenCalled();
    expect(positive).not.toHaveBeenCalled();
  });
});
