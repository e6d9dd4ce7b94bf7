import { describe, expect, test } from 'vitest';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { customerKey, sessionKey, shopperKeys } from '../../src/engine/shopper-keys.js';
import { expectedTrendingScore } from '../support/trending.js';
import { ask, engineWith, event, idsOf, product, T0 } from './fixtures.js';

function hasHistory(engine: ShopEngine, key: string): boolean {
  return engine.hasHistory(engine.shopperSlot(key));
}

/** The shopper's recently viewed product ids, newest first. */
function viewed(engine: ShopEngine, key: string): string[] {
  const slot = engine.shopperSlot(key);
  const start = engine.recentViews.start(slot);
  return Array.from(engine.recentViews.ids.subarray(start, start + engine.recentViews.size(slot)), (id) => engine.catalog.idOf(id));
}

describe('ShopEngine', () => {
  test('When events name a product before the catalog has it, then they count once it is added', () => {
    const engine = engineWith(['a']);
    engine.apply(event('purchase', 'late', T0));
    engine.apply(event('view', 'a', T0));
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['a']);

    engine.upsertProduct(product('late', { collections: ['k'] }));
    const trending = ask(engine, { strategy: 'trending' }, T0);
    expect(idsOf(trending)).toEqual(['late', 'a']);
    // Its purchase counts as if the product had been there (weight 6, fresh).
    expect(trending.items[0]!.score).toBeCloseTo(expectedTrendingScore(6, 6), 9);
    expect(idsOf(ask(engine, { strategy: 'collection-popular', collectionId: 'k', limit: 1 }, T0))).toEqual(['late']);
  });

  test('When a product is removed and comes back, then its earlier events count again', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('purchase', 'b', T0));
    engine.removeProduct('b');
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['a']);
    engine.upsertProduct(product('b'));
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['b', 'a']);
  });

  test('When dismiss and impression events arrive, then they add no popularity and no view history', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('dismiss', 'b', T0, { sessionId: 's1' }));
    engine.apply(event('impression', 'b', T0, { sessionId: 's1' }));
    expect(engine.eventCount).toBe(2);
    expect(engine.trending.raw(engine.catalog.denseOf('b')!)).toBe(0);
    expect(hasHistory(engine, sessionKey('s1'))).toBe(false);
  });

  test('When a shopper views more products than the per-shopper bound, then only that many are kept', () => {
    const engine = engineWith([], { recentViewsPerShopper: 3 });
    for (let i = 0; i < 10; i++) engine.apply(event('view', `p${i}`, T0 + i, { sessionId: 's1', customerId: 'c1' }));
    expect(viewed(engine, sessionKey('s1'))).toEqual(['p9', 'p8', 'p7']);
    expect(viewed(engine, customerKey('c1'))).toHaveLength(3);
  });

  test('When more shoppers are active than the bound, then the least recently active are forgotten', () => {
    const engine = engineWith(['a'], { maxShoppers: 2 });
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's2' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's3' }));
    expect(engine.shoppers.size).toBe(2);
    expect(hasHistory(engine, sessionKey('s2'))).toBe(false);
    expect(hasHistory(engine, sessionKey('s1'))).toBe(true);
    expect(hasHistory(engine, sessionKey('s3'))).toBe(true);
  });

  test('When shopper keys are built, then the customer comes first and empty ids are skipped', () => {
    expect(shopperKeys('c1', 's1')).toEqual([customerKey('c1'), sessionKey('s1')]);
    expect(shopperKeys(undefined, 's1')).toEqual([sessionKey('s1')]);
    expect(shopperKeys('', '')).toEqual([]);
  });
});
