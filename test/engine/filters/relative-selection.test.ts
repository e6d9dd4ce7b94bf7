// What a relative filter costs an answer, counted as products touched (filter-work.ts): the
// candidates it looks at, tested one by one, and past TESTS_BEFORE_SET of them the filter's set
// for the context product, made once and kept until the catalog changes; never a pass over the
// catalog per request.
import { afterEach, describe, expect, test } from 'vitest';
import { shapeFor } from '../../../src/engine/answer-shaping.js';
import { formatFilter, parseFilter } from '../../../src/engine/filters/filter-syntax.js';
import { TESTS_BEFORE_SET } from '../../../src/engine/filters/relative-selection.js';
import { recommend, requestContext, type RecommendationRequest } from '../../../src/engine/recommend.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { idsOf, T0 } from '../fixtures.js';
import { busyStore, countFilterWork, REPEATED_RELATIVE, type FilterWork } from './filter-work.js';

const CATALOG = 3000;

function filtered(engine: ShopEngine, filter: string, request: Partial<RecommendationRequest>) {
  const parsed = parseFilter(filter);
  if (!parsed.ok) throw new Error(parsed.error.detail);
  const full: RecommendationRequest = { limit: 8, exclude: [], ...request, filter: { text: formatFilter(parsed.expression), expression: parsed.expression } };
  const shaped = shapeFor(engine, full, requestContext(engine, full));
  if (!shaped.ok) throw new Error(shaped.error.detail);
  return recommend(engine, full, T0, shaped.shape);
}

describe('relative filter cost', () => {
  let work: FilterWork | undefined;
  afterEach(() => work?.restore());

  test('When a request carries the 504-character relative expression, then its answer tests the candidates it looks at and makes no set over the catalog', () => {
    const engine = busyStore(CATALOG);
    work = countFilterWork();
    for (const productId of ['1', '2', '57', '150']) {
      const plain = idsOf(recommend(engine, { productId, limit: 8, exclude: [] }, T0));
      work.reset();
      // The expression selects every catalog product: the answer is the plain one.
      expect(idsOf(filtered(engine, REPEATED_RELATIVE, { productId }))).toEqual(plain);
      expect(work.setEntries).toBe(0);
      expect(work.tests).toBeGreaterThan(0);
      expect(work.tests).toBeLessThanOrEqual(TESTS_BEFORE_SET);
    }
  });

  test('When a relative filter leaves an answer short, then the walk past the ranked candidates makes its set once per context product and reads it again', () => {
    const engine = busyStore(CATALOG);
    work = countFilterWork();
    // 49 products (every 60th), 3 of them ever bought: trending must look past its ranking.
    const filter = 'same:vendor AND tag:t3';
    const first = filtered(engine, filter, { productId: '1', strategy: 'trending', limit: 24 });
    expect(idsOf(first)).toHaveLength(24);
    const made = work.setEntries;
    // One pass over the catalog for the set of all products (kept while the catalog is unchanged),
    // and each term's own posting lists.
    expect(made).toBeLessThan(2 * CATALOG);
    expect(work.tests).toBeLessThanOrEqual(TESTS_BEFORE_SET);
    work.reset();
    expect(idsOf(filtered(engine, filter, { productId: '1', strategy: 'trending', limit: 24 }))).toEqual(idsOf(first));
    expect(work.setEntries).toBe(0);
    expect(work.tests).toBe(0);
  });
});
