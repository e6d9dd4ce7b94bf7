// A Shopify order as purchase events: one per line item of a product, for the order's customer (the
// id the storefront sends as customerId), with the order id, quantity and unit price, and the recId
// of the recommendation the shopper took it from when the widget recorded one in the cart's
// attributes. Pure: the same order always gives the same events, with the same messageIds, whether a
// webhook or a page of orders.json brought it, so an order delivered twice is stored once.
import { MAX_CART_RECS_LENGTH, REC_IDS_ATTRIBUTE } from '../../api/cart-attribute.js';
import type { WireEvent } from '../../api/event.js';
import { shopifyId, type ShopifyNoteAttribute, type ShopifyOrder } from './payloads.js';


/** A recommendation a product was taken from: the answer's recId and the placement that showed it. */
export interface TakenFrom {
  recId: string;
  widgetId?: string;
}

/** The recIds recorded in an order's note attributes, by bare product id; empty when none or unreadable. */
export function recIdsOf(attributes: readonly ShopifyNoteAttribute[] | null | undefined): Map<string, TakenFrom> {
  const taken = new Map<string, TakenFrom>();
  const value = attributes?.find((a) => a.name === REC_IDS_ATTRIBUTE)?.value;
  if (typeof value !== 'string' || value.length > MAX_CART_RECS_LENGTH) return taken;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return taken;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return taken;
  for (const [productId, entry] of Object.entries(parsed)) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || entry[0].length > 64) continue;
    const widgetId = typeof entry[1] === 'string' && entry[1] !== '' && entry[1].length <= 128 ? entry[1] : undefined;
    taken.set(productId, widgetId === undefined ? { recId: entry[0] } : { recId: entry[0], widgetId });
  }
  return taken;
}

/** The messageId of an order's line item: stable across deliveries and syncs. */
export function lineItemMessageId(orderId: string, lineItemId: string): string {
  return `shopify:${orderId}:${lineItemId}`;
}

/** Why an order gives no events, when it gives none. */
export type OrderSkip = 'test order' | 'cancelled order' | 'no product line items';

export type OrderEvents = { ok: true; orderId: string; events: WireEvent[] } | { ok: false; orderId: string; reason: OrderSkip };

/**
 * The purchases of `order`. Line items without a product (custom items) are skipped; an order
 * without a customer gives purchases without one, in a session of the order's own; a test order
 * (Shopify's test gateway) or one already cancelled gives none.
 */
export function orderEvents(order: ShopifyOrder): OrderEvents {
  const orderId = shopifyId(order.id);
  if (order.test === true) return { ok: false, orderId, reason: 'test order' };
  // Already cancelled (a sync reads orders of any status): its revenue would be taken back at once.
  if (order.cancelled_at) return { ok: false, orderId, reason: 'cancelled order' };
  const customerId = order.customer ? shopifyId(order.customer.id) : undefined;
  const taken = recIdsOf(order.note_attributes);
  const timestamp = order.processed_at ?? order.created_at ?? undefined;
  const events: WireEvent[] = [];
  for (const item of order.line_items ?? []) {
    if (item.product_id === null || item.product_id === undefined) continue;
    const productId = shopifyId(item.product_id);
    const quantity = typeof item.quantity === 'number' && item.quantity > 0 ? item.quantity : 1;
    const price = item.price === null || item.price === undefined ? undefined : Number(item.price);
    const metadata: Record<string, unknown> = { orderId, quantity };
    if (price !== undefined && Number.isFinite(price) && price >= 0) metadata.price = price;
    const event: WireEvent = {
      type: 'purchase',
      productId: `gid://shopify/Product/${productId}`,
      // The storefront's session is not in the order: the order is a session of its own.
      sessionId: `shopify-order-${orderId}`,
      metadata,
      messageId: lineItemMessageId(orderId, shopifyId(item.id)),
    };
    if (customerId !== undefined) event.customerId = customerId;
    if (timestamp) event.timestamp = timestamp;
    const from = taken.get(productId);
    if (from !== undefined) {
      event.recId = from.recId;
      if (from.widgetId !== undefined) event.widgetId = from.widgetId;
    }
    events.push(event);
  }
  return events.length > 0 ? { ok: true, orderId, events } : { ok: false, orderId, reason: 'no product line items' };
}
