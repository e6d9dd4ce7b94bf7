// The answer cache never serves a stale answer: on random stores, event streams and catalog changes,
// every answer it serves equals what the engine computes afresh at that moment (caps kept tiny so
// neighbour pruning, shopper eviction and top-list limits all happen).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { EngineConfig } from '../../src/config.js';
import { AnswerCache } from '../../src/engine/answer-cache.js';
import type { EventType } from '../../src/engine/event.js';
import { recommend, type Recommendation, type RecommendationRequest } from '../../src/engine/recommend.js';
import { STRATEGIES } from '../../src/engine/strategy.js';
import { DAY, T0, engineWith, event, product } from './fixtures.js';

const IDS = Array.from({ length: 12 }, (_, i) => `p${i}`);
const COLLECTIONS = ['k1', 'k2', 'k3', 'k4'];
const TYPES: EventType[] = ['impression', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'view'];

function comparable(result: Recommendation) {
  return { strategy: result.strategy, modelLevel: result.modelLevel, items: result.items.map((i) => [i.product.id, i.score, i.strategy, i.product.available]) };
}

/** Bought-together scores relative to the row's best however weak it is (see pairConfidenceBaskets). */
const RELATIVE_TO_BEST: Partial<EngineConfig> = { pairConfidenceBaskets: 0 };

function newCache(maxAgeMs = 60_000) {
  return new AnswerCache<Recommendation>(1 << 20, maxAgeMs, () => 100);
}

/** The cache in front of recommend(), as http/answers.ts uses it. */
function cachedAnswer(cache: AnswerCache<Recommendation>, engine: ReturnType<typeof engineWith>, request: RecommendationRequest, now: number) {
  const key = JSON.stringify(request);
  const cached = cache.get(engine, key, now);
  if (cached !== undefined) return cached;
  const result = recommend(engine, request, now);
  cache.set(engine, key, now, result, engine.scratch.reads);
  return result;
}

const shopperArb = fc.record({ sessionId: fc.constantFrom('s1', 's2', 's3'), customerId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }) });
const requestArb: fc.Arbitrary<RecommendationRequest> = fc.record({
  strategy: fc.option(fc.constantFrom(...STRATEGIES), { nil: undefined }),
  productId: fc.option(fc.constantFrom(...IDS), { nil: undefined }),
  collectionId: fc.option(fc.constantFrom(...COLLECTIONS), { nil: undefined }),
  customerId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
  sessionId: fc.option(fc.constantFrom('s1', 's2', 's3'), { nil: undefined }),
  // Short lists mostly end inside their first strategy, so its own reads decide (not the backfill's).
  limit: fc.integer({ min: 1, max: 3 }),
  exclude: fc.subarray(IDS, { maxLength: 2 }),
});
const eventArb = fc.record({
  kind: fc.constant('event' as const),
  type: fc.constantFrom(...TYPES),
  productId: fc.constantFrom(...IDS),
  orderId: fc.option(fc.constantFrom('o1', 'o2', 'o3'), { nil: undefined }),
  dt: fc.integer({ min: -10 * DAY, max: 0 }),
  shopper: shopperArb,
});
const stepArb = fc.oneof(
  { weight: 5, arbitrary: eventArb },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('product' as const), productId: fc.constantFrom(...IDS), available: fc.boolean(), collections: fc.subarray(COLLECTIONS, { maxLength: 1 }) }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('ask' as const), query: fc.nat(7) }) },
);

describe('answer cache', () => {
  test('When models and catalog change between repeated requests, then every cached answer equals a fresh one', () => {
    fc.assert(
      // A warm-up fills the models first, so that most answers end inside their first strategy (its own
      // reads decide then, not those of the backfill: trending changes with almost every event).
      fc.property(fc.array(requestArb, { minLength: 8, maxLength: 8 }), fc.array(eventArb, { minLength: 40, maxLength: 80 }), fc.array(stepArb, { minLength: 1, maxLength: 120 }), (queries, warmUp, steps) => {
        const engine = engineWith(
          IDS.map((id, i) => product(id, { collections: i < 8 ? [COLLECTIONS[i % 4]!] : [], vendor: `v${i % 3}` })),
          { topListSize: 3, maxNeighbors: 3, shopperNeighbors: 2, maxCustomers: 2, maxSessions: 2, maxBaskets: 2, historyPerShopper: 3, recentViewsPerShopper: 3, pairingWindow: 2 },
        );
        // Momentum (recent sales over orders ever) scales every personalized candidate, and a cached
        // answer does not read every candidate's sales: it moves within the cache's max age, by
        // design (strategies/personalized.ts). Exactness is checked without it.
        engine.ease.blend = { ...engine.ease.blend, momentumExponent: 0 };
        const cache = newCache();
        const now = T0;
        for (const step of [...warmUp, ...steps]) {
          if (step.kind === 'event') {
            const e = event(step.type, step.productId, now + step.dt, step.shopper);
            engine.apply(step.orderId === undefined ? e : { ...e, metadata: { orderId: step.orderId } });
          } else if (step.kind === 'product') {
            engine.upsertProduct(product(step.productId, { available: step.available, collections: step.collections }));
          } else {
            const query = queries[step.query]!;
            const served = comparable(cachedAnswer(cache, engine, query, now));
            expect(served).toEqual(comparable(recommend(engine, query, now)));
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  // Each case below changes exactly one model part an answer read, and nothing else that answer read,
  // so it fails if that one read is not recorded.
  describe('When a change reaches only one part an answer read, then the next answer is computed afresh', () => {
    function expectFreshAfter(
      setUp: (apply: (e: ReturnType<typeof event>) => void) => void,
      request: Partial<RecommendationRequest>,
      change: ReturnType<typeof event>[],
      config: Partial<EngineConfig> = {},
    ) {
      const engine = engineWith(['a', 'b', 'c', 'd', 'e'], config);
      setUp((e) => engine.apply(e));
      const cache = newCache();
      const full = { limit: 1, exclude: [], ...request };
      const before = cachedAnswer(cache, engine, full, T0);
      expect(cachedAnswer(cache, engine, full, T0)).toBe(before); // a hit at the same change count, checked once
      for (const e of change) engine.apply(e);
      const after = cachedAnswer(cache, engine, full, T0);
      expect(comparable(after)).toEqual(comparable(recommend(engine, full, T0)));
      expect(comparable(after)).not.toEqual(comparable(before));
    }
    const order = (orderId: string, ...ids: string[]) => ids.map((id) => ({ ...event('purchase', id, T0, { sessionId: `s-${orderId}` }), metadata: { orderId } }));
    const views = (sessionId: string, ...ids: string[]) => ids.map((id) => event('view', id, T0, { sessionId }));

    test('bought-together: a returned product joins a basket without the context product', () => {
      expectFreshAfter((apply) => [...order('1', 'a', 'b'), ...order('2', 'a', 'b'), ...order('3', 'a', 'c'), ...order('4', 'a', 'c')].forEach(apply), { strategy: 'bought-together', productId: 'a' }, order('5', 'b', 'd'));
    });
    test('bought-together: the context product pairs anew', () => {
      expectFreshAfter((apply) => [...order('1', 'a', 'b'), ...order('2', 'a', 'b'), ...order('3', 'a', 'c')].forEach(apply), { strategy: 'bought-together', productId: 'a' }, [...order('4', 'a', 'c'), ...order('5', 'a', 'c')]);
    });
    test('bought-together: the best partner, excluded from the answer, joins a basket without the context product (every score is relative to it)', () => {
      // Scores relative to the best however weak (by default a best from two baskets counts as a
      // confident pair's, which a third basket of b does not move).
      expectFreshAfter((apply) => [...order('1', 'a', 'b'), ...order('2', 'a', 'b'), ...order('3', 'a', 'c')].forEach(apply), { strategy: 'bought-together', productId: 'a', exclude: ['b'] }, order('4', 'b', 'd'), RELATIVE_TO_BEST);
    });
    test('similar: a returned product is viewed in a session without the context product', () => {
      expectFreshAfter((apply) => [...views('1', 'a', 'b'), ...views('2', 'a', 'c')].forEach(apply), { strategy: 'similar', productId: 'a' }, views('3', 'b', 'd'));
    });
    test("personalized: a seed's neighbour row changes", () => {
      expectFreshAfter((apply) => [...views('x', 'a'), ...views('y', 'a', 'b'), ...views('z', 'a', 'c')].forEach(apply), { strategy: 'personalized', sessionId: 'x' }, views('w', 'a', 'c'));
    });
    test('personalized: a returned product gains a history without the seed', () => {
      expectFreshAfter((apply) => [...views('x', 'a'), ...views('y', 'a', 'b'), ...views('z', 'a', 'c')].forEach(apply), { strategy: 'personalized', sessionId: 'x' }, views('v', 'b', 'd'));
    });
    test('recently-viewed: the shopper views another product', () => {
      expectFreshAfter((apply) => views('x', 'a').forEach(apply), { strategy: 'recently-viewed', sessionId: 'x' }, [event('dismiss', 'a', T0, { sessionId: 'x' })]);
    });
  });

  test('When nothing changes, then a repeated request is served from the cache', () => {
    const engine = engineWith(['a', 'b', 'c']);
    engine.apply(event('purchase', 'a', T0, { sessionId: 's' }));
    engine.apply(event('purchase', 'b', T0, { sessionId: 's' }));
    const cache = newCache();
    const request = { productId: 'a', limit: 4, exclude: [] };
    const first = cachedAnswer(cache, engine, request, T0);
    expect(cachedAnswer(cache, engine, request, T0 + 10)).toBe(first);
    expect(cache.hits).toBe(1);
  });

  test("When a product a bought-together answer returned sells within its basket count's level, then the answer stays cached; when its level moves, it is computed afresh", () => {
    const engine = engineWith(['a', 'b', 'c', 'x', 'y', 'z'], RELATIVE_TO_BEST);
    const order = (orderId: string, ...ids: string[]) => ids.forEach((id) => engine.apply({ ...event('purchase', id, T0, { sessionId: `s-${orderId}` }), metadata: { orderId } }));
    order('1', 'a', 'b');
    order('2', 'a', 'b');
    order('3', 'b', 'x');
    order('4', 'b', 'x'); // b in 4 baskets: level floor(2·log2 4) = 4
    order('5', 'a', 'c');
    const cache = newCache();
    const request = { strategy: 'bought-together' as const, productId: 'a', limit: 2, exclude: [] };
    const first = cachedAnswer(cache, engine, request, T0);
    expect(first.items.map((i) => i.product.id)).toEqual(['b', 'c']);
    order('6', 'b', 'y'); // 5 baskets: still level 4
    expect(cachedAnswer(cache, engine, request, T0)).toBe(first);
    expect(comparable(first)).toEqual(comparable(recommend(engine, request, T0)));
    order('7', 'b', 'z'); // 6 baskets: level 5, a larger discount
    const after = cachedAnswer(cache, engine, request, T0);
    expect(after).not.toBe(first);
    expect(comparable(after)).toEqual(comparable(recommend(engine, request, T0)));
    expect(after.items[1]!.score).toBeGreaterThan(first.items[1]!.score); // c, relative to b, which fell
  });

  test('When an answer is older than the longest age, then it is computed afresh', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('view', 'a', T0));
    const cache = newCache(1000);
    const request = { strategy: 'trending' as const, limit: 4, exclude: [] };
    const first = cachedAnswer(cache, engine, request, T0);
    expect(cachedAnswer(cache, engine, request, T0 + 999)).toBe(first);
    expect(cachedAnswer(cache, engine, request, T0 + 1000)).not.toBe(first);
    // A clock that stepped back is not trusted either.
    expect(cachedAnswer(cache, engine, request, T0)).not.toBe(first);
  });

  test('When a shopper the answer found nothing for gets a history, then the answer is computed afresh', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('view', 'b', T0, { sessionId: 'other' }));
    const cache = newCache();
    const request = { customerId: 'new', limit: 4, exclude: [] };
    expect(cachedAnswer(cache, engine, request, T0).strategy).toBe('trending');
    engine.apply(event('view', 'a', T0, { sessionId: 'x', customerId: 'new' }));
    expect(cachedAnswer(cache, engine, request, T0).strategy).toBe('personalized');
  });

  test('When the cache is over its byte budget, then the oldest answers go first', () => {
    const engine = engineWith(['a']);
    const cache = new AnswerCache<string>(1000, 60_000, (value) => value.length);
    const reads = engine.scratch.reads;
    reads.reset();
    for (const key of ['k1', 'k2', 'k3', 'k4']) cache.set(engine, key, T0, 'x'.repeat(200), reads);
    expect(cache.bytes).toBeLessThanOrEqual(1000);
    expect(cache.get(engine, 'k1', T0)).toBeUndefined();
    expect(cache.get(engine, 'k4', T0)).toBe('x'.repeat(200));
  });
});
