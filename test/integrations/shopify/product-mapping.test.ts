import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseCatalog } from '../../../src/api/product.js';
import { isShopifyProduct, type ShopifyProduct } from '../../../src/integrations/shopify/payloads.js';
import { productAvailable, shopifyTags, toCatalogRecord } from '../../../src/integrations/shopify/product-mapping.js';
import { fixture } from './fixtures.js';

const NOW = Date.UTC(2026, 0, 1);

describe('toCatalogRecord', () => {
  test('When given the documented product with several variants and images, then every catalog field is read from it', () => {
    const product = fixture<ShopifyProduct>('product');
    expect(isShopifyProduct(product)).toBe(true);
    const record = toCatalogRecord(product)!;
    expect(record).toEqual({
      id: 'gid://shopify/Product/632910392',
      title: 'IPod Nano - 8GB',
      handle: 'ipod-nano',
      // The image at position 1, though it comes second in the list.
      image: 'https://cdn.shopify.com/s/files/1/0005/4838/0009/products/ipod-nano.png?v=1759327200',
      // Black (179.00) is cheapest but sold out with policy "deny": the cheapest that can be bought is Green.
      price: '189.00',
      compareAtPrice: '219.00',
      vendor: 'Apple',
      productType: 'Cult Products',
      tags: ['Emotive', 'Flash Memory', 'MP3', 'Music'],
      available: true,
      sourceUpdatedAt: '2025-10-02T14:01:47-04:00',
    });
    // No collections in a product payload: the record leaves them out (the stored ones are kept).
    expect('collections' in record).toBe(false);
    const parsed = parseCatalog({ products: [record] }, 'shopify', NOW);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.products[0]).toMatchObject({ id: '632910392', platform: 'shopify', sourceUpdatedAt: Date.parse('2025-10-02T18:01:47Z') });
  });

  test('When collections are known, then they are given as gids', () => {
    expect(toCatalogRecord(fixture<ShopifyProduct>('product'), ['841564295', '395646240'])!.collections).toEqual([
      'gid://shopify/Collection/841564295',
      'gid://shopify/Collection/395646240',
    ]);
  });

  test('When no variant can be bought, or the product is draft, archived or unpublished, then it is unavailable', () => {
    const soldOut = fixture<ShopifyProduct>('product');
    for (const variant of soldOut.variants!) Object.assign(variant, { inventory_policy: 'deny', inventory_quantity: 0 });
    expect(productAvailable(soldOut)).toBe(false);
    // Sold out everywhere: the price shown is the cheapest of all.
    expect(toCatalogRecord(soldOut)!.price).toBe('179.00');
    for (const status of ['draft', 'archived']) expect(productAvailable({ ...fixture<ShopifyProduct>('product'), status })).toBe(false);
    expect(productAvailable({ ...fixture<ShopifyProduct>('product'), published_at: null })).toBe(false);
    const untracked = fixture<ShopifyProduct>('product');
    for (const variant of untracked.variants!) Object.assign(variant, { inventory_management: null, inventory_policy: 'deny', inventory_quantity: 0 });
    expect(productAvailable(untracked)).toBe(true);
  });

  test('When the product has no variants, then it is stored without a price, available by its status', () => {
    const record = toCatalogRecord({ ...fixture<ShopifyProduct>('product'), variants: [] })!;
    expect(record.price).toBeNull();
    expect(record.compareAtPrice).toBeNull();
    expect(record.available).toBe(true);
  });

  test('When ids come as strings, or the handle has letters the catalog does not take, then the record is the same but for the handle', () => {
    const product = fixture<ShopifyProduct>('product');
    const record = toCatalogRecord({ ...product, id: '632910392', handle: 'アイポッド' })!;
    expect(record.id).toBe('gid://shopify/Product/632910392');
    expect(record.handle).toBeNull();
  });

  test('When the product has no title, then there is no record', () => {
    expect(toCatalogRecord({ ...fixture<ShopifyProduct>('product'), title: '  ' })).toBeUndefined();
  });

  test('When a compare-at price is not above the price, then no compare-at price is shown', () => {
    const product = fixture<ShopifyProduct>('product');
    product.variants = [{ ...product.variants![0]!, price: '10.00', compare_at_price: '10.00' }];
    expect(toCatalogRecord(product)!.compareAtPrice).toBeNull();
  });

  test('When given any product payload, then the record is one PUT /api/products accepts', () => {
    const money = fc.oneof(fc.constantFrom(null, '', '19.99', '-1', 'abc', '1e3', 7, 0.1), fc.stringMatching(/^[0-9]{1,3}\.[0-9]{2}$/));
    const variant = fc.record(
      {
        id: fc.nat(),
        price: money,
        compare_at_price: money,
        inventory_policy: fc.constantFrom('deny', 'continue', null),
        inventory_management: fc.constantFrom('shopify', null),
        inventory_quantity: fc.integer({ min: -5, max: 5 }),
      },
      { requiredKeys: [] },
    );
    const product = fc.record(
      {
        id: fc.oneof(fc.nat(), fc.stringMatching(/^[0-9]{1,12}$/)),
        title: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null)),
        handle: fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null)),
        vendor: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null)),
        product_type: fc.oneof(fc.string({ maxLength: 300 }), fc.constant(null)),
        tags: fc.oneof(fc.string({ maxLength: 600 }), fc.array(fc.string({ maxLength: 300 }), { maxLength: 300 }).map((t) => t.join(',')), fc.constant(null)),
        status: fc.constantFrom('active', 'draft', 'archived', null),
        updated_at: fc.constantFrom('2025-10-02T14:01:47-04:00', '2025-10-02T18:01:47Z'),
        variants: fc.oneof(fc.array(variant, { maxLength: 4 }), fc.constant(null)),
        images: fc.array(fc.record({ src: fc.oneof(fc.webUrl(), fc.constant(null)), position: fc.oneof(fc.nat(), fc.constant(null)) }), { maxLength: 3 }),
      },
      { requiredKeys: ['id'] },
    );
    fc.assert(
      fc.property(product, (payload) => {
        const record = toCatalogRecord(payload as ShopifyProduct);
        if (record === undefined) {
          expect(payload.title?.trim() ?? '').toBe('');
          return;
        }
        const parsed = parseCatalog({ products: [record] }, 'shopify', NOW);
        expect(parsed.ok ? [] : parsed.errors).toEqual([]);
      }),
    );
  });
});

describe('shopifyTags', () => {
  test('When tags repeat or are blank, then each is kept once, trimmed, in order', () => {
    expect(shopifyTags(' b, a ,,b, c ')).toEqual(['b', 'a', 'c']);
    expect(shopifyTags('')).toEqual([]);
    expect(shopifyTags(null)).toEqual([]);
  });
});
