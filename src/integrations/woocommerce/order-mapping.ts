// A WooCommerce order as purchase events once it is paid for (processing or completed): one per line
// item of a product still in the shop, for the order's customer (customer_id; 0 is a guest), with the
// order id, quantity and unit price. The same order always gives the same events and messageIds,
// however often order.updated delivers it. Pure.
import type { WireEvent } from '../../api/event.js';
import { gmtTime, wooId, type WooOrder } from './payloads.js';

/** The statuses of an order that was paid for; cancelled or refunded ones stop counting. */
const PAID = new Set(['processing', 'completed']);
const CANCELLED = new Set(['cancelled', 'refunded']);

/** What an order's state asks for: its purchases, its cancellation, or nothing yet (pending, on hold, failed). */
export type WooOrderOutcome =
  | { kind: 'purchases'; orderId: string; events: WireEvent[] }
  | { kind: 'cancelled'; orderId: string }
  | { kind: 'none'; orderId: string; reason: string };

export function wooOrderOutcome(order: WooOrder): WooOrderOutcome {
  const orderId = wooId(order.id);
  const status = order.status ?? '';
  if (CANCELLED.has(status)) return { kind: 'cancelled', orderId };
  if (!PAID.has(status)) return { kind: 'none', orderId, reason: `status ${status || '(none)'}` };
  const customer = order.customer_id === null || order.customer_id === undefined ? '0' : wooId(order.customer_id);
  const timestamp = gmtTime(order.date_paid_gmt) ?? gmtTime(order.date_created_gmt);
  const events: WireEvent[] = [];
  for (const item of order.line_items ?? []) {
    const productId = item.product_id === null || item.product_id === undefined ? '0' : wooId(item.product_id);
    if (productId === '0') continue;
    const quantity = typeof item.quantity === 'number' && item.quantity > 0 ? item.quantity : 1;
    const price = item.price === null || item.price === undefined || item.price === '' ? NaN : Number(item.price);
    const metadata: Record<string, unknown> = { orderId, quantity };
    if (Number.isFinite(price) && price >= 0) metadata.price = price;
    const event: WireEvent = {
      type: 'purchase',
      productId: `gid://woocommerce/Product/${productId}`,
      sessionId: `woocommerce-order-${orderId}`,
      metadata,
      messageId: `woocommerce:${orderId}:${wooId(item.id)}`,
    };
    if (customer !== '0') event.customerId = customer;
    if (timestamp !== undefined) event.timestamp = timestamp;
    events.push(event);
  }
  return events.length > 0 ? { kind: 'purchases', orderId, events } : { kind: 'none', orderId, reason: 'no product line items' };
}
