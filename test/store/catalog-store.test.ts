import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import type { Product } from '../../src/engine/product.js';
import { CatalogStore } from '../../src/store/catalog-store.js';
import { product } from '../engine/fixtures.js';
import { tempDatabases } from '../support/temp-databases.js';

const { dbs, cleanup } = tempDatabases();
const store = new CatalogStore(dbs);
afterAll(cleanup);

let shops = 0;

function at(id: string, sourceUpdatedAt: number | undefined, title = `t${sourceUpdatedAt}`): Product {
  const base = product(id, { title });
  return sourceUpdatedAt === undefined ? base : { ...base, sourceUpdatedAt };
}

describe('CatalogStore.put', () => {
  test('When upserts of one product arrive in any order with source times, then the stored product is the one with the latest source time, and a repeat of it stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ time: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }), title: fc.constantFrom('v0', 'v1') }), { minLength: 1, maxLength: 8 }), async (upserts) => {
        const shopId = `order-${shops++}`;
        // Reference: a plain fold over the upserts, each applied unless older than what is stored.
        let expected: Product | undefined;
        for (const { time, title } of upserts) {
          const next = at('p', time, title);
          // Older than the stored one, or the same time and content: left out.
          const older = expected?.sourceUpdatedAt !== undefined && time !== undefined && (time < expected.sourceUpdatedAt || (time === expected.sourceUpdatedAt && next.title === expected.title));
          const put = await store.put(shopId, [next]);
          expect(put.upserted).toBe(older ? 0 : 1);
          if (!older) expected = next;
        }
        expect(dbs.products.get([shopId, 'p'])).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  test('When every product of an upsert is older than the stored one, then nothing is appended and the position is the head', async () => {
    const shopId = `older-${shops++}`;
    const first = await store.put(shopId, [at('a', 10), at('b', 10)]);
    const again = await store.put(shopId, [at('a', 9), at('b', 3)]);
    expect(again).toEqual({ position: first.position, upserted: 0 });
    expect(store.log.head(shopId, true)).toBe(first.position);
    const mixed = await store.put(shopId, [at('a', 9), at('b', 11)]);
    expect(mixed).toEqual({ position: first.position + 1, upserted: 1 });
    expect([...store.log.read(shopId, first.position)].map((r) => r.change)).toEqual([{ kind: 'products', products: [at('b', 11)] }]);
  });

  test('When an upsert keeps collections, then each product keeps the collections stored for it (none for a new one)', async () => {
    const shopId = `keep-${shops++}`;
    await store.put(shopId, [product('a', { collections: ['c1', 'c2'] })]);
    await store.put(shopId, [product('a', { title: 'renamed', collections: [] }), product('new', { collections: ['x'] })], Date.now(), true);
    expect(dbs.products.get([shopId, 'a'])).toMatchObject({ title: 'renamed', collections: ['c1', 'c2'] });
    expect(dbs.products.get([shopId, 'new'])!.collections).toEqual([]);
  });
});
