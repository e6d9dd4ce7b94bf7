import { describe, expect, test } from 'vitest';
import { parseEvent } from '../../../src/api/event.js';
import { isShopifyOrder, type ShopifyOrder } from '../../../src/integrations/shopify/payloads.js';
import { REC_IDS_ATTRIBUTE } from '../../../src/api/cart-attribute.js';
import { orderEvents, recIdsOf } from '../../../src/integrations/shopify/order-mapping.js';
import { fixture } from './fixtures.js';

const NOW = Date.UTC(2026, 0, 1);

describe('orderEvents', () => {
  test('When given the documented order, then each product line item is a purchase of its customer with quantity, price and the recorded recId', () => {
    const order = fixture<ShopifyOrder>('order');
    expect(isShopifyOrder(order)).toBe(true);
    const mapped = orderEvents(order);
    expect(mapped).toEqual({
      ok: true,
      orderId: '450789469',
      events: [
        {
          type: 'purchase',
          productId: 'gid://shopify/Product/632910392',
          sessionId: 'shopify-order-450789469',
          customerId: '207119551',
          metadata: { orderId: '450789469', quantity: 1, price: 199 },
          messageId: 'shopify:450789469:466157049',
          timestamp: '2025-10-03T09:12:40-04:00',
          recId: 'rec_b_0_0_k9x2a01c',
          widgetId: 'pdp-bought-together',
        },
        {
          type: 'purchase',
          productId: 'gid://shopify/Product/921728736',
          sessionId: 'shopify-order-450789469',
          customerId: '207119551',
          metadata: { orderId: '450789469', quantity: 2, price: 149 },
          messageId: 'shopify:450789469:518995019',
          timestamp: '2025-10-03T09:12:40-04:00',
        },
        // The gift wrapping line (product_id null, a custom item) gives no event.
      ],
    });
    // Every event is one the events API accepts.
    if (mapped.ok) for (const event of mapped.events) expect(parseEvent(event, NOW).ok).toBe(true);
  });

  test('When the order has no customer, then its purchases count without one', () => {
    const mapped = orderEvents({ ...fixture<ShopifyOrder>('order'), customer: null });
    expect(mapped.ok && mapped.events.every((e) => e.customerId === undefined)).toBe(true);
  });

  test('When ids come as strings, then the events are the same', () => {
    const order = fixture<ShopifyOrder>('order');
    const stringly = JSON.parse(JSON.stringify(order, (key, value) => (typeof value === 'number' && /id$/.test(key) ? String(value) : value))) as ShopifyOrder;
    expect(isShopifyOrder(stringly)).toBe(true);
    expect(orderEvents(stringly)).toEqual(orderEvents(order));
  });

  test('When the order is a test order, already cancelled or has only custom items, then it gives no events and says why', () => {
    expect(orderEvents({ ...fixture<ShopifyOrder>('order'), test: true })).toEqual({ ok: false, orderId: '450789469', reason: 'test order' });
    expect(orderEvents({ ...fixture<ShopifyOrder>('order'), cancelled_at: '2025-10-04T10:00:00-04:00' })).toEqual({ ok: false, orderId: '450789469', reason: 'cancelled order' });
    const custom = fixture<ShopifyOrder>('order');
    custom.line_items = custom.line_items!.filter((item) => item.product_id === null);
    expect(orderEvents(custom)).toEqual({ ok: false, orderId: '450789469', reason: 'no product line items' });
  });
});

describe('recIdsOf', () => {
  test('When the attribute is missing, not JSON, not an object or too long, then no recIds are read', () => {
    expect(recIdsOf(undefined).size).toBe(0);
    for (const value of ['not json', '[1,2]', '"x"', 'null', JSON.stringify({ 1: ['r'.repeat(65)] }), `{"1":["${'r'.repeat(5000)}"]}`]) {
      expect(recIdsOf([{ name: REC_IDS_ATTRIBUTE, value }]).size).toBe(0);
    }
  });

  test('When entries are well formed, then each product keeps its recId and widget', () => {
    const taken = recIdsOf([{ name: REC_IDS_ATTRIBUTE, value: JSON.stringify({ 1: ['rec_t_0_0_a'], 2: ['rec_s_0_0_b', 'home'], 3: 'bad' }) }]);
    expect([...taken]).toEqual([
      ['1', { recId: 'rec_t_0_0_a' }],
      ['2', { recId: 'rec_s_0_0_b', widgetId: 'home' }],
    ]);
  });
});
