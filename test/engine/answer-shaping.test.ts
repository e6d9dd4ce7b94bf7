// The answer's last stage: a request's filter and diversity constrain every pick of the chain, and a
// selective filter's products are ranked directly for the trending backfill (PickList.within).
import { describe, expect, test, vi } from 'vitest';
import { shapeFor, UNSHAPED } from '../../src/engine/answer-shaping.js';
import { SELECTIVE_FILTER_MAX } from '../../src/engine/pick-list.js';
import { formatFilter, parseFilter } from '../../src/engine/filters/filter-syntax.js';
import { recommend, requestContext, type RecommendationRequest } from '../../src/engine/recommend.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { engineWith, event, HOUR, idsOf, product, strategiesOf, T0 } from './fixtures.js';

function shaped(engine: ShopEngine, request: Partial<RecommendationRequest> & { filters?: string }, now: number) {
  const { filters, ...rest } = request;
  const full: RecommendationRequest = { limit: 24, exclude: [], ...rest };
  if (filters !== undefined) {
    const parsed = parseFilter(filters);
    if (!parsed.ok) throw new Error(parsed.error.detail);
    full.filter = { text: formatFilter(parsed.expression), expression: parsed.expression };
  }
  const outcome = shapeFor(engine, full, requestContext(engine, full));
  if (!outcome.ok) throw new Error(outcome.error.detail);
  return { result: recommend(engine, full, now, outcome.shape), shape: outcome.shape };
}

/** 40 products, vendor A for multiples of 5 and B otherwise; product i bought i times over the last hours. */
function busyEngine(topListSize: number): ShopEngine {
  const products = Array.from({ length: 40 }, (_, i) => product(String(i + 1), { vendor: (i + 1) % 5 === 0 ? 'A' : 'B' }));
  const engine = engineWith(products, { topListSize });
  let session = 0;
  for (let i = 1; i <= 40; i++) for (let n = 0; n < i % 7; n++) engine.apply(event('purchase', String(i), T0 - (n + 1) * HOUR, { sessionId: `s${session++}` }));
  return engine;
}

describe('answer shaping', () => {
  test('When a request has neither filter nor diversity, then its shape is the shared empty one', () => {
    const engine = engineWith(['1']);
    const outcome = shapeFor(engine, {}, []);
    expect(outcome.ok && outcome.shape).toBe(UNSHAPED);
    expect(UNSHAPED.constraints).toEqual([]);
  });

  test('When a selective filter picks products outside the trending top list, then the answer is them in the order full trending ranks them', () => {
    const complete = busyEngine(256);
    const small = busyEngine(2);
    const all = idsOf(shaped(complete, { strategy: 'trending', limit: 40 }, T0).result);
    const { result } = shaped(small, { strategy: 'trending', filters: 'vendor:A' }, T0);
    expect(idsOf(result)).toEqual(all.filter((id) => Number(id) % 5 === 0));
    expect(idsOf(result)).toHaveLength(8);
    expect(strategiesOf(result).every((s) => s === 'trending')).toBe(true);
  });

  test('When a selective filter leaves trending short, then neither every scored product nor the catalog is searched for its products', () => {
    const engine = busyEngine(2);
    const ordered = vi.spyOn(engine.catalog, 'ordered');
    const positive = vi.spyOn(engine.trending, 'positive');
    const { result } = shaped(engine, { strategy: 'trending', filters: 'vendor:A' }, T0);
    expect(idsOf(result)).toHaveLength(8);
    expect(ordered).not.toHaveBeenCalled();
    expect(positive).not.toHaveBeenCalled();
    shaped(engine, { strategy: 'trending', filters: 'vendor:B', limit: 40 }, T0);
    expect(ordered).not.toHaveBeenCalled();
  });

  test('When a filter backfills a product request, then every strategy of the chain is filtered and the short answer says so', () => {
    const engine = busyEngine(256);
    const { result } = shaped(engine, { productId: '5', filters: 'vendor:A AND NOT price:0..5' }, T0);
    expect(idsOf(result).sort((a, b) => Number(a) - Number(b))).toEqual(['10', '15', '20', '25', '30', '35', '40']);
  });

  test('When diversity caps a vendor at 1, then one item per vendor comes back, the best of each', () => {
    const engine = busyEngine(256);
    const plain = idsOf(shaped(engine, { strategy: 'trending' }, T0).result);
    const { result } = shaped(engine, { strategy: 'trending', diversity: { attribute: 'vendor', max: 1 } }, T0);
    const firstA = plain.find((id) => Number(id) % 5 === 0)!;
    const firstB = plain.find((id) => Number(id) % 5 !== 0)!;
    expect(idsOf(result)).toEqual(plain.filter((id) => id === firstA || id === firstB));
  });

  test('When a filter selects more than the selective bound, then trending walks the catalog as it always does', () => {
    const engine = engineWith(Array.from({ length: SELECTIVE_FILTER_MAX + 1 }, (_, i) => product(String(i + 1), { vendor: 'A' })));
    const ordered = vi.spyOn(engine.catalog, 'ordered');
    expect(shaped(engine, { strategy: 'trending', filters: 'vendor:A', limit: 3 }, T0).result.items).toHaveLength(3);
    expect(ordered).toHaveBeenCalled();
    expect(shaped(engine, { strategy: 'trending', filters: 'vendor:A AND price < 20', limit: 3 }, T0).result.items).toHaveLength(3);
  });
});
