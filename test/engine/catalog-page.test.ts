// Catalog pages in product-id order: a listing paged while products come and go lists every product
// present throughout exactly once, in order.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { catalogPage } from '../../src/engine/catalog-page.js';
import { Catalog, compareProductIds } from '../../src/engine/catalog.js';
import { product } from './fixtures.js';

/** Ids that mix plain integers (the numeric fast path), leading zeros and letters. */
const productId = fc.oneof(fc.integer({ min: 0, max: 500 }).map(String), fc.stringMatching(/^[0-9a-c]{1,3}$/), fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,5}$/));

/** Between two page fetches: add some products, remove some (never one present from the start). */
const change = fc.record({ add: fc.array(productId, { maxLength: 6 }), remove: fc.array(fc.nat(), { maxLength: 3 }) });

describe('catalogPage', () => {
  test('When the catalog is paged, then the pages are the product-id order cut in pieces, and the last says no more', () => {
    const catalog = new Catalog();
    const ids = ['10', '9', 'b', '010', 'a', '100', 'A', '2'];
    for (const id of ids) catalog.upsert(product(id));
    const seen: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = catalogPage(catalog, after, 3);
      seen.push(...page.products.map((p) => p.id));
      if (!page.more) break;
      after = page.products.at(-1)!.id;
    }
    // Numeric-aware ("9" before "10"), ties ("010" and "10") by code units: the order rankings break ties by.
    expect(seen).toEqual(['2', '9', '010', '10', '100', 'a', 'A', 'b']);
    expect(seen).toEqual([...ids].sort(compareProductIds));
    expect(catalogPage(catalog, 'b', 3)).toEqual({ products: [], more: false });
  });

  test('When products are added and removed between pages, then every product present throughout is listed exactly once, all in strictly increasing id order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(productId, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), fc.array(change, { maxLength: 30 }), (initial, limit, changes) => {
        const catalog = new Catalog();
        for (const id of initial) catalog.upsert(product(id));
        const initialSet = new Set(initial);
        const added: string[] = [];
        const listed: string[] = [];
        let after: string | undefined;
        for (let round = 0; ; round++) {
          const page = catalogPage(catalog, after, limit);
          expect(page.products.length).toBeLessThanOrEqual(limit);
          listed.push(...page.products.map((p) => p.id));
          if (!page.more) break;
          expect(page.products.length).toBe(limit);
          after = page.products.at(-1)!.id;
          const { add, remove } = changes[round % Math.max(1, changes.length)] ?? { add: [], remove: [] };
          for (const id of add) {
            catalog.upsert(product(id));
            if (!initialSet.has(id)) added.push(id);
          }
          for (const i of remove) {
            const id = added[i % Math.max(1, added.length)];
            if (id !== undefined && !initialSet.has(id)) catalog.remove(id);
          }
        }
        for (let i = 1; i < listed.length; i++) expect(compareProductIds(listed[i - 1]!, listed[i]!)).toBeLessThan(0);
        const counts = new Map<string, number>();
        for (const id of listed) counts.set(id, (counts.get(id) ?? 0) + 1);
        for (const id of initial) expect(counts.get(id), id).toBe(1);
      }),
      { numRuns: 300 },
    );
  });

  test('When the cursor names a product deleted since, then the next page starts after where it stood', () => {
    const catalog = new Catalog();
    for (const id of ['1', '2', '3', '4']) catalog.upsert(product(id));
    catalog.remove('2');
    expect(catalogPage(catalog, '2', 5).products.map((p) => p.id)).toEqual(['3', '4']);
  });
});
