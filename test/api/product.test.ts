import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_PRODUCTS_PER_PUT, parseCatalog, slugify } from '../../src/api/product.js';

const NOW = Date.UTC(2024, 0, 1);
const BARE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const DECIMAL = /^[0-9]{1,12}(\.[0-9]{1,4})?$/;

const amountArb = fc.oneof(
  fc.constantFrom(null, '19.99', '0', '1.2345', '1.23456', '-1', '1e3', '', ' 1', 0, 19.99, 1e-7, 0.1 + 0.2, 1e21, Number.POSITIVE_INFINITY, -1),
  fc.double({ min: 0, max: 1e13, noNaN: true }),
  fc.stringMatching(/^[0-9]{1,14}(\.[0-9]{0,5})?$/),
);

const wireProductArb = fc.record(
  {
    id: fc.oneof(fc.constantFrom('1', 'gid://shopify/Product/77', 'gid://acme/Product/x-1', 'gid://shopify/Collection/1', '', 'a b'), fc.string({ maxLength: 10 })),
    title: fc.oneof(fc.constantFrom('Shoe', ''), fc.string({ unit: 'grapheme', maxLength: 10 })),
    handle: fc.oneof(fc.constantFrom(null, 'shoe-1', 'bad handle', '-x'), fc.string({ maxLength: 8 })),
    price: amountArb,
    compareAtPrice: amountArb,
    tags: fc.oneof(fc.constant(null), fc.array(fc.constantFrom('a', 'b', 'a'), { maxLength: 4 })),
    collections: fc.oneof(fc.constant(null), fc.array(fc.constantFrom('1', 'gid://shopify/Collection/2', 'gid://shopify/Product/3', '1', '', 7), { maxLength: 4 })),
    available: fc.constantFrom(true, false, null, 'yes'),
  },
  { requiredKeys: ['id', 'title'] },
);

describe('parseCatalog', () => {
  test('When given any value, then it never throws, and every accepted product is normalized', () => {
    const input = fc.oneof(fc.anything(), fc.jsonValue(), fc.record({ products: fc.oneof(fc.anything(), fc.array(wireProductArb, { maxLength: 4 })) }));
    fc.assert(
      fc.property(input, (raw) => {
        const parsed = parseCatalog(raw, 'shopify', NOW);
        if (!parsed.ok) {
          expect(parsed.errors.length).toBeGreaterThan(0);
          for (const error of parsed.errors) expect(error.pointer === '' || error.pointer.startsWith('/')).toBe(true);
          return;
        }
        expect(parsed.products.length).toBeGreaterThanOrEqual(1);
        for (const product of parsed.products) {
          expect(product.id).toMatch(BARE);
          expect(product.platform.length).toBeGreaterThan(0);
          expect(product.title.length).toBeGreaterThan(0);
          expect(product.handle.length).toBeGreaterThan(0);
          for (const amount of [product.price, product.compareAtPrice]) if (amount !== null) expect(amount).toMatch(DECIMAL);
          for (const c of product.collections) expect(c).toMatch(BARE);
          expect(new Set(product.collections).size).toBe(product.collections.length);
          expect(new Set(product.tags).size).toBe(product.tags.length);
          expect(typeof product.available).toBe('boolean');
          expect(product.updatedAt).toBe(NOW);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('When a product is otherwise valid, then any numeric or string price is accepted exactly when it reads as a decimal', () => {
    fc.assert(
      fc.property(amountArb, (price) => {
        const parsed = parseCatalog({ products: [{ id: '1', title: 'T', price }] }, 'shopify', NOW);
        const decimal = price === null || DECIMAL.test(String(price));
        expect(parsed.ok).toBe(decimal);
        if (parsed.ok) expect(parsed.products[0]!.price).toBe(price === null ? null : String(price));
        else expect(parsed.errors.map((e) => e.pointer)).toEqual(['/products/0/price']);
      }),
      { numRuns: 300 },
    );
  });

  test('When ids are gids, then they are normalized to bare ids and the platform is kept', () => {
    const parsed = parseCatalog(
      { products: [{ id: 'gid://acme/Product/9', title: 'Hat', collections: ['gid://acme/Collection/4', '4', '5'], tags: ['x', 'x'] }, { id: '10', title: 'Café au lait!' }] },
      'shopify',
      NOW,
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.products[0]).toMatchObject({ id: '9', platform: 'acme', collections: ['4', '5'], tags: ['x'], handle: 'hat', available: true, price: null });
    expect(parsed.products[1]).toMatchObject({ id: '10', platform: 'shopify', handle: 'cafe-au-lait' });
  });

  test('When 1001 products are sent, then the whole upsert is rejected; 1000 are accepted', () => {
    const products = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i), title: `P${i}` }));
    expect(parseCatalog({ products: products(MAX_PRODUCTS_PER_PUT + 1) }, 'shopify', NOW)).toEqual({
      ok: false,
      errors: [{ pointer: '/products', detail: 'holds at most 1000 products' }],
    });
    const accepted = parseCatalog({ products: products(MAX_PRODUCTS_PER_PUT) }, 'shopify', NOW);
    expect(accepted.ok && accepted.products.length).toBe(MAX_PRODUCTS_PER_PUT);
  });

  test.each([
    ['a string price with 5 decimals', { price: '1.23456' }, '/products/0/price'],
    ['a negative price', { price: -1 }, '/products/0/price'],
    ['an exponent price', { compareAtPrice: '1e3' }, '/products/0/compareAtPrice'],
    ['a tiny numeric price', { price: 1e-7 }, '/products/0/price'],
    ['a float-noise price', { price: 0.1 + 0.2 }, '/products/0/price'],
    ['an infinite price (JSON 1e999)', { price: JSON.parse('1e999') as number }, '/products/0/price'],
    ['a huge numeric price', { compareAtPrice: 1e21 }, '/products/0/compareAtPrice'],
    ['a collection gid as id', { id: 'gid://shopify/Collection/1' }, '/products/0/id'],
    ['a product gid as collection', { collections: ['gid://shopify/Product/1'] }, '/products/0/collections/0'],
    ['an empty title', { title: '' }, '/products/0/title'],
    ['a source time without a zone', { sourceUpdatedAt: '2025-10-02T14:01:47' }, '/products/0/sourceUpdatedAt'],
    ['a source time that is not a date', { sourceUpdatedAt: 'yesterday' }, '/products/0/sourceUpdatedAt'],
    ['a negative source time', { sourceUpdatedAt: -1 }, '/products/0/sourceUpdatedAt'],
  ])('When a product has %s, then the upsert is rejected at that field', (_, fields, pointer) => {
    const parsed = parseCatalog({ products: [{ id: '1', title: 'T', ...fields }] }, 'shopify', NOW);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.errors.map((e) => e.pointer)).toContain(pointer);
  });

  test('When prices are decimal strings or plain numbers, then they are kept as decimal strings', () => {
    const parsed = parseCatalog({ products: [{ id: '1', title: 'T', price: 19.99, compareAtPrice: '25.00' }, { id: '2', title: 'U', price: 0 }] }, 'shopify', NOW);
    expect(parsed.ok && parsed.products.map((p) => [p.price, p.compareAtPrice])).toEqual([
      ['19.99', '25.00'],
      ['0', null],
    ]);
  });

  test('When a title has no slug characters, then the handle falls back to "product"', () => {
    expect(slugify('!!!')).toBe('product');
    expect(slugify('Ünïcode  Shoe')).toBe('unicode-shoe');
  });

  test('When a product has a source time, then it is kept as epoch ms, whether given as ISO 8601 or ms', () => {
    const parsed = parseCatalog({ products: [{ id: '1', title: 'T', sourceUpdatedAt: '2025-10-02T14:01:47-04:00' }, { id: '2', title: 'U', sourceUpdatedAt: 5 }, { id: '3', title: 'V' }] }, 'shopify', NOW);
    expect(parsed.ok && parsed.products.map((p) => p.sourceUpdatedAt)).toEqual([Date.UTC(2025, 9, 2, 18, 1, 47), 5, undefined]);
  });
});
