import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { sameProduct, type Product } from '../../src/engine/product.js';
import { isDeepStrictEqual } from 'node:util';

const productArb: fc.Arbitrary<Product> = fc.record(
  {
    id: fc.constantFrom('1', '2'),
    platform: fc.constant('shopify'),
    title: fc.constantFrom('a', 'b'),
    handle: fc.constant('h'),
    image: fc.constantFrom(null, 'i'),
    price: fc.constantFrom(null, '1.00'),
    compareAtPrice: fc.constantFrom(null, '2.00'),
    vendor: fc.constantFrom(null, 'v'),
    productType: fc.constant(null),
    tags: fc.array(fc.constantFrom('x', 'y'), { maxLength: 2 }),
    collections: fc.array(fc.constantFrom('c', 'd'), { maxLength: 2 }),
    available: fc.boolean(),
    repurchasable: fc.constant(true),
    attributes: fc.dictionary(fc.constantFrom('m', 'n'), fc.oneof(fc.constantFrom('w', 'z'), fc.constantFrom(1, 2))),
    sourceUpdatedAt: fc.constantFrom(1, 2),
    source: fc.constant('feed' as const),
    updatedAt: fc.nat(),
  },
  { requiredKeys: ['id', 'platform', 'title', 'handle', 'image', 'price', 'compareAtPrice', 'vendor', 'productType', 'tags', 'collections', 'available', 'updatedAt'] },
);

/** Reference: deep equality of everything but the upsert time, with absent optional fields as their defaults. */
function reference(a: Product, b: Product): boolean {
  const plain = ({ updatedAt: _, repurchasable, attributes, ...rest }: Product) => ({ ...rest, repurchasable: repurchasable ?? false, attributes: attributes ?? {} });
  return isDeepStrictEqual(plain(a), plain(b));
}

describe('sameProduct', () => {
  test('When given any two products, then it agrees with deep equality of all but the upsert time', () => {
    fc.assert(fc.property(productArb, productArb, (a, b) => {
      expect(sameProduct(a, b)).toBe(reference(a, b));
    }));
    fc.assert(fc.property(productArb, fc.nat(), (a, time) => {
      expect(sameProduct(a, { ...a, updatedAt: time, tags: [...a.tags] })).toBe(true);
    }));
  });
});
