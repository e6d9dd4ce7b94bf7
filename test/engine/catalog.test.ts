import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Catalog, compareProductIds } from '../../src/engine/catalog.js';
import { product } from './fixtures.js';

const members = (catalog: Catalog, collectionId: string) => [...(catalog.members(collectionId) ?? [])].map((dense) => catalog.idOf(dense));

describe('Catalog', () => {
  test('When ids are interned, then each gets a stable dense id in arrival order', () => {
    const catalog = new Catalog();
    expect(catalog.intern('a')).toBe(0);
    expect(catalog.intern('b')).toBe(1);
    expect(catalog.intern('a')).toBe(0);
    expect(catalog.denseOf('b')).toBe(1);
    expect(catalog.denseOf('zzz')).toBeUndefined();
    expect(catalog.idOf(1)).toBe('b');
    expect(catalog.size).toBe(2);
  });

  test('When an id is known only from events, then it has a dense id but no product and does not count', () => {
    const catalog = new Catalog();
    const dense = catalog.intern('ghost');
    expect(catalog.product(dense)).toBeUndefined();
    expect(catalog.get('ghost')).toBeUndefined();
    expect(catalog.productCount).toBe(0);

    const change = catalog.upsert(product('ghost', { collections: ['c1'] }));
    expect(change).toEqual({ dense, added: ['c1'], removed: [] });
    expect(catalog.get('ghost')?.title).toBe('Product ghost');
    expect(catalog.productCount).toBe(1);
  });

  test('When a product changes collections, then membership follows and the change lists what moved', () => {
    const catalog = new Catalog();
    catalog.upsert(product('a', { collections: ['c1', 'c2'] }));
    catalog.upsert(product('b', { collections: ['c1'] }));
    const change = catalog.upsert(product('a', { collections: ['c2', 'c3'] }));
    expect(change.added).toEqual(['c3']);
    expect(change.removed).toEqual(['c1']);
    expect(members(catalog, 'c1')).toEqual(['b']);
    expect(members(catalog, 'c2')).toEqual(['a']);
    expect(members(catalog, 'c3')).toEqual(['a']);
    expect(catalog.productCount).toBe(2);
  });

  test('When the last member leaves a collection, then the collection is unknown', () => {
    const catalog = new Catalog();
    catalog.upsert(product('a', { collections: ['c1'] }));
    catalog.upsert(product('a', { collections: [] }));
    expect(catalog.members('c1')).toBeUndefined();
    expect([...catalog.collectionIds()]).toEqual([]);
  });

  test('When a product is removed and added back, then it keeps its dense id and rejoins its collections', () => {
    const catalog = new Catalog();
    catalog.upsert(product('a', { collections: ['c1'] }));
    catalog.upsert(product('b', { collections: ['c1'] }));
    const removed = catalog.remove('a');
    expect(removed).toEqual({ dense: 0, added: [], removed: ['c1'] });
    expect(catalog.get('a')).toBeUndefined();
    expect(catalog.productCount).toBe(1);
    expect(members(catalog, 'c1')).toEqual(['b']);
    expect(catalog.remove('a')).toBeUndefined();
    expect(catalog.remove('never')).toBeUndefined();

    const back = catalog.upsert(product('a', { collections: ['c1'] }));
    expect(back).toEqual({ dense: 0, added: ['c1'], removed: [] });
    expect(catalog.productCount).toBe(2);
    expect(members(catalog, 'c1')).toEqual(['b', 'a']);
  });
});

describe('Catalog id order', () => {
  test('When any ids are compared by dense id, then the order is the product-id order of compareProductIds', () => {
    const id = fc.oneof(fc.nat({ max: 10_000_000 }).map(String), fc.string({ maxLength: 6 }), fc.constantFrom('007', '7', '10', '9007199254740993', 'gid-1'));
    fc.assert(
      fc.property(fc.uniqueArray(id, { minLength: 2, maxLength: 30 }), (ids) => {
        const catalog = new Catalog();
        for (const value of ids) catalog.intern(value);
        for (let a = 0; a < ids.length; a++) {
          for (let b = 0; b < ids.length; b++) expect(Math.sign(catalog.compareIds(a, b))).toBe(Math.sign(compareProductIds(ids[a]!, ids[b]!)));
        }
      }),
    );
  });
});
