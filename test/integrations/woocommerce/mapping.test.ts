import { describe, expect, test } from 'vitest';
import { parseEvent } from '../../../src/api/event.js';
import { parseCatalog } from '../../../src/api/product.js';
import { wooOrderOutcome } from '../../../src/integrations/woocommerce/order-mapping.js';
import { isWooOrder, isWooProduct, type WooOrder, type WooProduct } from '../../../src/integrations/woocommerce/payloads.js';
import { wooCatalogRecord } from '../../../src/integrations/woocommerce/product-mapping.js';
import { platformFixture } from '../fixtures.js';

const NOW = Date.UTC(2026, 0, 1);
const product = () => platformFixture<WooProduct>('woocommerce', 'product');
const order = () => platformFixture<WooOrder>('woocommerce', 'order');

describe('wooCatalogRecord', () => {
  test('When given the documented product on sale, then every catalog field is read from it', () => {
    expect(isWooProduct(product())).toBe(true);
    const record = wooCatalogRecord(product())!;
    expect(record).toEqual({
      id: 'gid://woocommerce/Product/794',
      title: 'Premium Quality',
      handle: 'premium-quality-19',
      image: 'https://example.com/wp-content/uploads/2025/10/T_2_front-4.jpg',
      price: '19.99',
      compareAtPrice: '24.99',
      vendor: 'Woo Apparel',
      productType: null,
      tags: ['cotton', 'summer'],
      collections: ['gid://woocommerce/Collection/9', 'gid://woocommerce/Collection/14'],
      available: true,
      sourceUpdatedAt: '2025-10-24T12:12:03Z',
    });
    const parsed = parseCatalog({ products: [record] }, 'shopify', NOW);
    expect(parsed.ok && parsed.products[0]).toMatchObject({ id: '794', platform: 'woocommerce', collections: ['9', '14'], sourceUpdatedAt: Date.UTC(2025, 9, 24, 12, 12, 3) });
  });

  test('When the product is out of stock, a draft, hidden or not purchasable, then it is unavailable; on back order it sells', () => {
    for (const change of [{ stock_status: 'outofstock' }, { status: 'draft' }, { status: 'private' }, { catalog_visibility: 'hidden' }, { purchasable: false }]) {
      expect(wooCatalogRecord({ ...product(), ...change })!.available).toBe(false);
    }
    expect(wooCatalogRecord({ ...product(), stock_status: 'onbackorder' })!.available).toBe(true);
  });

  test('When not on sale, with a percent-encoded slug, empty prices or no name, then the record says so', () => {
    const plain = wooCatalogRecord({ ...product(), price: '24.99', sale_price: '', slug: '%d1%84%d1%83' })!;
    expect([plain.price, plain.compareAtPrice, plain.handle]).toEqual(['24.99', null, null]);
    expect(wooCatalogRecord({ ...product(), price: '', regular_price: '' })!.price).toBeNull();
    expect(wooCatalogRecord({ ...product(), name: '' })).toBeUndefined();
  });
});

describe('wooOrderOutcome', () => {
  test('When the documented order is processing, then each line of a product still in the shop is a purchase of its customer', () => {
    expect(isWooOrder(order())).toBe(true);
    const outcome = wooOrderOutcome(order());
    expect(outcome).toEqual({
      kind: 'purchases',
      orderId: '727',
      events: [
        { type: 'purchase', productId: 'gid://woocommerce/Product/93', sessionId: 'woocommerce-order-727', customerId: '25', metadata: { orderId: '727', quantity: 2, price: 3 }, messageId: 'woocommerce:727:315', timestamp: '2025-10-25T19:22:30Z' },
        { type: 'purchase', productId: 'gid://woocommerce/Product/22', sessionId: 'woocommerce-order-727', customerId: '25', metadata: { orderId: '727', quantity: 1, price: 12 }, messageId: 'woocommerce:727:316', timestamp: '2025-10-25T19:22:30Z' },
      ],
    });
    if (outcome.kind === 'purchases') for (const event of outcome.events) expect(parseEvent(event, NOW).ok).toBe(true);
  });

  test('When the order is completed it gives the same events; cancelled or refunded, its cancellation; pending, on hold or failed, nothing yet', () => {
    expect(wooOrderOutcome({ ...order(), status: 'completed' })).toEqual(wooOrderOutcome(order()));
    for (const status of ['cancelled', 'refunded']) expect(wooOrderOutcome({ ...order(), status })).toEqual({ kind: 'cancelled', orderId: '727' });
    for (const status of ['pending', 'on-hold', 'failed']) expect(wooOrderOutcome({ ...order(), status }).kind).toBe('none');
  });

  test("When a guest ordered, then the purchases have no customer", () => {
    const outcome = wooOrderOutcome({ ...order(), customer_id: 0 });
    expect(outcome.kind === 'purchases' && outcome.events.every((e) => e.customerId === undefined)).toBe(true);
  });
});
