import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalizeCollectionId, normalizeProductId, parseId, productGid } from '../../src/api/product-id.js';

const bareArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
const platformArb = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/);

describe('product ids', () => {
  test('When a bare id is normalized, then it is unchanged; as a gid, then it comes back bare with its platform', () => {
    fc.assert(
      fc.property(bareArb, platformArb, (id, platform) => {
        expect(normalizeProductId(id)).toBe(id);
        const gid = productGid(platform, id);
        expect(normalizeProductId(gid)).toBe(id);
        expect(parseId(gid, 'Product')).toEqual({ id, platform });
        expect(productGid(platform, normalizeProductId(gid)!)).toBe(gid);
        expect(normalizeCollectionId(gid)).toBeUndefined();
        expect(normalizeCollectionId(`gid://${platform}/Collection/${id}`)).toBe(id);
      }),
      { numRuns: 300 },
    );
  });

  test('When any string is normalized, then it never throws and the result is bare or undefined', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 90 }), (raw) => {
        const id = normalizeProductId(raw);
        if (id !== undefined) expect(normalizeProductId(id)).toBe(id);
      }),
      { numRuns: 300 },
    );
  });

  test.each(['', ' 1', '1 ', '-1', 'a/b', 'gid://shopify/Product/', 'gid://shopify/Product/1/2', 'gid:///Product/1', 'gid://shopify/Variant/1', 'x'.repeat(65), 'é'])(
    'When the id is "%s", then it is not a product id',
    (raw) => {
      expect(normalizeProductId(raw)).toBeUndefined();
    },
  );
});
