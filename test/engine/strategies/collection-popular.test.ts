import { describe, expect, test } from 'vitest';
import { ask, DAY, engineWith, event, idsOf, product, strategiesOf, T0 } from '../fixtures.js';

function shop() {
  const engine = engineWith([
    product('a', { collections: ['shoes'] }),
    product('b', { collections: ['shoes'] }),
    product('c', { collections: ['shoes', 'sale'] }),
    product('x', { collections: ['hats'] }),
    product('y'),
  ]);
  engine.apply(event('purchase', 'x', T0)); // the store's best seller, but not a shoe
  engine.apply(event('view', 'a', T0));
  engine.apply(event('add_to_cart', 'c', T0));
  return engine;
}

describe('collection-popular', () => {
  test('When a collection is asked for, then only its members come first, ranked by popularity, then trending backfills', () => {
    const result = ask(shop(), { strategy: 'collection-popular', collectionId: 'shoes' }, T0);
    expect(idsOf(result)).toEqual(['c', 'a', 'b', 'x', 'y']);
    expect(strategiesOf(result)).toEqual(['collection-popular', 'collection-popular', 'collection-popular', 'trending', 'trending']);
    expect(result.strategy).toBe('collection-popular');
    expect(result.modelLevel).toBe(1);
  });

  test('When the limit is reached inside the collection, then nothing is backfilled', () => {
    const result = ask(shop(), { strategy: 'collection-popular', collectionId: 'shoes', limit: 2 }, T0);
    expect(idsOf(result)).toEqual(['c', 'a']);
  });

  test('When a product moves out of a collection, then it disappears from that collection', () => {
    const engine = shop();
    engine.upsertProduct(product('c', { collections: ['sale'] }));
    const result = ask(engine, { strategy: 'collection-popular', collectionId: 'shoes', limit: 2 }, T0);
    expect(idsOf(result)).toEqual(['a', 'b']);
    expect(strategiesOf(result)).toEqual(['collection-popular', 'collection-popular']);
    expect(idsOf(ask(engine, { strategy: 'collection-popular', collectionId: 'sale', limit: 1 }, T0))).toEqual(['c']);
  });

  test('When a scored product joins a collection, then it ranks there by the popularity it already had', () => {
    const engine = shop();
    engine.upsertProduct(product('x', { collections: ['hats', 'shoes'] }));
    const result = ask(engine, { strategy: 'collection-popular', collectionId: 'shoes', limit: 3 }, T0);
    expect(idsOf(result)).toEqual(['x', 'c', 'a']);
  });

  test('When a product is deleted, then it leaves its collections', () => {
    const engine = shop();
    expect(engine.removeProduct('c')).toBe(true);
    expect(engine.removeProduct('c')).toBe(false);
    const result = ask(engine, { strategy: 'collection-popular', collectionId: 'shoes', limit: 2 }, T0);
    expect(idsOf(result)).toEqual(['a', 'b']);
  });

  test('When popularity is compared, then it decays with its own (longer) half-life than trending', () => {
    const engine = engineWith([product('a', { collections: ['k'] }), product('b', { collections: ['k'] })]);
    engine.apply(event('purchase', 'a', T0 - 14 * DAY)); // popularity 3 now, trending 6 · 2^-7
    engine.apply(event('click', 'b', T0)); // 2 in both
    const popular = ask(engine, { strategy: 'collection-popular', collectionId: 'k' }, T0);
    expect(idsOf(popular)).toEqual(['a', 'b']);
    expect(popular.items[0]!.score).toBeCloseTo(3, 12);
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['b', 'a']);
  });

  test('When the collection is unknown, then the chain falls through to trending', () => {
    const result = ask(shop(), { strategy: 'collection-popular', collectionId: 'nope', limit: 1 }, T0);
    expect(idsOf(result)).toEqual(['x']);
    expect(strategiesOf(result)).toEqual(['trending']);
    expect(result.strategy).toBe('collection-popular');
  });
});
