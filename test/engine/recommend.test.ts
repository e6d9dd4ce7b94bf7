import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CHAINS, chooseStrategy } from '../../src/engine/recommend.js';
import { STRATEGIES, type Strategy } from '../../src/engine/strategy.js';
import type { EventType } from '../../src/engine/event.js';
import { ask, DAY, engineWith, event, idsOf, product, strategiesOf, T0 } from './fixtures.js';

describe('recommend', () => {
  test('When the store has no events, then trending answers in product id order at modelLevel 0', () => {
    const engine = engineWith(['c', '10', 'a', '2', 'b']);
    const result = ask(engine, {}, T0);
    expect(result.strategy).toBe('trending');
    expect(result.modelLevel).toBe(0);
    expect(idsOf(result)).toEqual(['2', '10', 'a', 'b', 'c']);
    expect(result.items.every((item) => item.score === 0 && item.strategy === 'trending')).toBe(true);
  });

  test('When the catalog is empty, then the answer is empty at modelLevel 0', () => {
    const result = ask(engineWith([]), { strategy: 'trending' }, T0);
    expect(result).toEqual({ strategy: 'trending', modelLevel: 0, items: [] });
  });

  test('When no strategy is given, then it is chosen from the context (product, collection, shopper with history, nothing)', () => {
    const engine = engineWith(['a']);
    engine.apply(event('view', 'a', T0, { customerId: 'seen', sessionId: 'browsing' }));
    const choose = (request: object) => chooseStrategy(engine, { limit: 8, exclude: [], ...request });
    expect(choose({ productId: 'a' })).toBe('bought-together');
    expect(choose({ productId: 'a', collectionId: 'k', customerId: 'seen' })).toBe('bought-together');
    expect(choose({ collectionId: 'k', customerId: 'seen' })).toBe('collection-popular');
    expect(choose({ customerId: 'seen' })).toBe('personalized');
    expect(choose({ sessionId: 'browsing' })).toBe('personalized');
    expect(choose({ customerId: 'new' })).toBe('trending');
    expect(choose({})).toBe('trending');
    expect(choose({ strategy: 'recently-viewed', productId: 'a' })).toBe('recently-viewed');
  });

  test('When a product page asks and it has no basket partners, then similar answers by content at level 0 until co-views make it behavioural', () => {
    const engine = engineWith([
      product('shoe', { collections: ['shoes'], vendor: 'Stride' }),
      product('boot', { collections: ['shoes'], vendor: 'Stride' }),
      product('hat', { vendor: 'Capper' }),
    ]);
    engine.apply(event('purchase', 'hat', T0));
    engine.apply(event('view', 'shoe', T0, { sessionId: 'a' }));
    const result = ask(engine, { productId: 'shoe' }, T0);
    expect(result.strategy).toBe('bought-together');
    expect(idsOf(result)).toEqual(['boot', 'hat']);
    expect(strategiesOf(result)).toEqual(['similar', 'similar']);
    // Content alone is no behavioural signal: level 0.
    expect(result.modelLevel).toBe(0);

    engine.apply(event('view', 'boot', T0, { sessionId: 'a' }));
    const coViewed = ask(engine, { productId: 'shoe' }, T0);
    expect(coViewed.modelLevel).toBe(2);
    expect(coViewed.items[0]).toMatchObject({ strategy: 'similar' });
    expect(coViewed.items[0]!.product.id).toBe('boot');
  });

  test('When a collection runs out, then trending backfills and each item names its strategy', () => {
    const engine = engineWith([product('shoe', { collections: ['shoes'] }), product('boot', { collections: ['shoes'] }), 'hat']);
    engine.apply(event('purchase', 'hat', T0));
    engine.apply(event('view', 'boot', T0));
    const result = ask(engine, { strategy: 'collection-popular', collectionId: 'shoes' }, T0);
    expect(idsOf(result)).toEqual(['boot', 'shoe', 'hat']);
    expect(strategiesOf(result)).toEqual(['collection-popular', 'collection-popular', 'trending']);
    expect(result.modelLevel).toBe(1);
  });

  test('When the product is unknown, then the chain falls through to trending', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('click', 'b', T0));
    const result = ask(engine, { productId: 'nope', limit: 1 }, T0);
    expect(result.strategy).toBe('bought-together');
    expect(idsOf(result)).toEqual(['b']);
    expect(strategiesOf(result)).toEqual(['trending']);
  });

  test('When a product is unavailable, excluded or the context, then it is never returned', () => {
    const engine = engineWith([product('ctx', { collections: ['k'] }), product('gone', { available: false, collections: ['k'] }), product('ex', { collections: ['k'] }), product('ok')]);
    for (const id of ['ctx', 'gone', 'ex', 'ok']) engine.apply(event('purchase', id, T0));
    for (const strategy of STRATEGIES) {
      const result = ask(engine, { strategy, productId: 'ctx', collectionId: 'k', sessionId: 's', exclude: ['ex'] }, T0);
      expect(idsOf(result)).toEqual(['ok']);
    }
  });

  test('When a shopper dismisses a product, then it is hidden for that shopper (customer or session) only, for 30 days', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('purchase', 'a', T0 - DAY));
    engine.apply(event('dismiss', 'a', T0, { customerId: 'c1', sessionId: 's1' }));
    expect(idsOf(ask(engine, { customerId: 'c1' }, T0))).toEqual(['b']);
    expect(idsOf(ask(engine, { sessionId: 's1' }, T0))).toEqual(['b']);
    expect(idsOf(ask(engine, { customerId: 'c1', sessionId: 'elsewhere' }, T0))).toEqual(['b']);
    expect(idsOf(ask(engine, { customerId: 'c2', sessionId: 's2' }, T0))).toEqual(['a', 'b']);
    expect(idsOf(ask(engine, {}, T0))).toEqual(['a', 'b']);
    expect(idsOf(ask(engine, { customerId: 'c1' }, T0 + 30 * DAY - 1))).toEqual(['b']);
    expect(idsOf(ask(engine, { customerId: 'c1' }, T0 + 30 * DAY))).toEqual(['a', 'b']);
  });

  test('When a product would come from two strategies of the chain, then it appears once, labelled by the first', () => {
    const engine = engineWith([product('a', { collections: ['k'] }), product('b')]);
    engine.apply(event('purchase', 'a', T0));
    engine.apply(event('view', 'b', T0));
    const result = ask(engine, { collectionId: 'k' }, T0);
    expect(idsOf(result)).toEqual(['a', 'b']);
    expect(strategiesOf(result)).toEqual(['collection-popular', 'trending']);
  });

  test('When recently-viewed answers, then modelLevel is 3; when trending answers, then 1', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    expect(ask(engine, { strategy: 'recently-viewed', sessionId: 's1' }, T0).modelLevel).toBe(3);
    expect(ask(engine, { strategy: 'trending' }, T0).modelLevel).toBe(1);
  });

  test('When any store, events and request are combined, then the answer respects the limit and every never-return rule', () => {
    const ids = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
    const productArb = fc.record({ available: fc.boolean(), collections: fc.subarray(['k1', 'k2', 'k3']) });
    const shopper = fc.record({ sessionId: fc.constantFrom('s1', 's2'), customerId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }) });
    const types: EventType[] = ['impression', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'view'];
    const eventArb = fc.record({
      type: fc.constantFrom(...types),
      productId: fc.constantFrom(...ids, 'unknown'),
      t: fc.integer({ min: -40 * DAY, max: 0 }),
      shopper,
    });
    const requestArb = fc.record({
      strategy: fc.option(fc.constantFrom(...STRATEGIES), { nil: undefined }),
      productId: fc.option(fc.constantFrom(...ids, 'unknown'), { nil: undefined }),
      collectionId: fc.option(fc.constantFrom('k1', 'k2', 'nope'), { nil: undefined }),
      customerId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
      sessionId: fc.option(fc.constantFrom('s1', 's2'), { nil: undefined }),
      limit: fc.integer({ min: 1, max: 24 }),
      exclude: fc.subarray(ids, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(productArb, { minLength: ids.length, maxLength: ids.length }), fc.array(eventArb, { maxLength: 40 }), requestArb, (products, events, request) => {
        const engine = engineWith(products.map((p, i) => product(ids[i]!, p)), { topListSize: 3 });
        const dismissedAt = new Map<string, number>();
        const bought = new Set<string>();
        const viewed = new Set<string>();
        for (const e of events) {
          engine.apply(event(e.type, e.productId, T0 + e.t, e.shopper));
          if (e.type === 'view' || e.type === 'click') viewed.add(`${e.shopper.sessionId}/${e.productId}`);
          // a shopper's history lives under the customer when logged in, else under the session
          if (e.type === 'purchase') bought.add(`${e.shopper.customerId ? `c:${e.shopper.customerId}` : `s:${e.shopper.sessionId}`}/${e.productId}`);
          if (e.type !== 'dismiss') continue;
          for (const key of [e.shopper.customerId && `c:${e.shopper.customerId}`, `s:${e.shopper.sessionId}`]) {
            if (key) dismissedAt.set(`${key}/${e.productId}`, Math.max(dismissedAt.get(`${key}/${e.productId}`) ?? -Infinity, T0 + e.t));
          }
        }
        const result = ask(engine, request, T0);
        const returned = idsOf(result);
        const primary: Strategy = result.strategy;
        const keys = [request.customerId && `c:${request.customerId}`, request.sessionId && `s:${request.sessionId}`].filter((k): k is string => !!k);
        const boughtByShopper = (id: string) => primary === 'personalized' && keys.some((k) => bought.has(`${k}/${id}`));
        // ...nor what this session viewed (8 products: all within its recent views)
        const viewedInSession = (id: string) => primary === 'personalized' && request.sessionId !== undefined && viewed.has(`${request.sessionId}/${id}`);
        for (const id of returned) expect(boughtByShopper(id) || viewedInSession(id)).toBe(false);

        expect(returned.length).toBeLessThanOrEqual(request.limit);
        expect(new Set(returned).size).toBe(returned.length);
        const available = ids.filter((id, i) => products[i]!.available && id !== request.productId && !request.exclude.includes(id));
        for (const id of returned) {
          expect(available).toContain(id);
          for (const key of [request.customerId && `c:${request.customerId}`, request.sessionId && `s:${request.sessionId}`]) {
            if (key) expect(T0 - (dismissedAt.get(`${key}/${id}`) ?? -Infinity)).toBeGreaterThanOrEqual(30 * DAY);
          }
        }
        for (const label of strategiesOf(result)) expect(CHAINS[primary]).toContain(label);
        if (request.strategy !== undefined) expect(primary).toBe(request.strategy);
        // trending ends every chain and offers every product: the answer is only short when the store is.
        if (returned.length < request.limit) {
          const hidden = available.filter((id) => !returned.includes(id));
          for (const id of hidden) {
            const dismissed = keys.some((k) => T0 - (dismissedAt.get(`${k}/${id}`) ?? -Infinity) < 30 * DAY);
            expect(dismissed || boughtByShopper(id) || viewedInSession(id)).toBe(true);
          }
        }
        // scores run from best to worst within each strategy's run
        for (let i = 1; i < result.items.length; i++) {
          if (result.items[i]!.strategy === result.items[i - 1]!.strategy) expect(result.items[i]!.score).toBeLessThanOrEqual(result.items[i - 1]!.score);
        }
      }),
      { numRuns: 300 },
    );
  });
});
