// WooCommerce's webhook deliveries (POST /webhooks/woocommerce) turned into the shop's commands and
// events: the shop found by X-WC-Webhook-Source, the signature (X-WC-Webhook-Signature) checked over
// the exact bytes before they are parsed, then each topic mapped (integrations/woocommerce/) and
// written like the REST API writes, durably and applied before the answer. A delivery id already
// taken (X-WC-Webhook-Delivery-ID) changes nothing.
import { wooOrderOutcome } from '../integrations/woocommerce/order-mapping.js';
import { isWooDeletion, isWooOrder, isWooProduct, wooId } from '../integrations/woocommerce/payloads.js';
import { wooCatalogRecord } from '../integrations/woocommerce/product-mapping.js';
import type { PlatformConnections } from './platform-connections.js';
import { invalidDelivery, type DeliveryOutcome, type PlatformWrites } from './platform-writes.js';
import { verifiedDelivery } from './verified-delivery.js';

/** A delivery as received: its headers and its body's exact bytes. */
export interface WooDelivery {
  source: string | undefined;
  topic: string | undefined;
  deliveryId: string | undefined;
  signature: string | undefined;
  body: Uint8Array;
}

/**
 * The ping WooCommerce sends when a webhook is saved: `webhook_id=<id>`, form-encoded and unsigned.
 * Answered 200 whoever sends it: it stores nothing.
 */
const PING = /^webhook_id=\d{1,20}$/;

export class WooWebhooks {
  constructor(
    readonly connections: PlatformConnections,
    readonly writes: PlatformWrites,
  ) {}

  /**
   * Takes one delivery: throws AppError('unauthorized') for an unknown store or a signature that does
   * not verify (nothing stored), ('invalid_json') or ('invalid_webhook') for a signed body that is not
   * the topic's payload, ('unavailable') when the storage refuses; else resolves once it is durable
   * and applied.
   */
  async receive(delivery: WooDelivery, now: number): Promise<DeliveryOutcome> {
    if (delivery.topic === undefined && delivery.body.length <= 40 && PING.test(Buffer.from(delivery.body).toString('latin1'))) return 'ignored';
    const { shopId } = verifiedDelivery(this.connections, delivery.source, delivery.body, delivery.signature, now, { source: 'X-WC-Webhook-Source', signature: 'X-WC-Webhook-Signature' });
    const topic = delivery.topic ?? '';
    const outcome = await this.#take(shopId, topic, delivery, now);
    this.writes.count('woocommerce', topic, outcome);
    return outcome;
  }

  async #take(shopId: string, topic: string, delivery: WooDelivery, now: number): Promise<DeliveryOutcome> {
    const payload = this.writes.json(delivery.body);
    const id = delivery.deliveryId === undefined ? undefined : `woocommerce:${delivery.deliveryId}`;
    switch (topic) {
      case 'product.created':
      case 'product.updated':
      case 'product.restored': {
        if (!isWooProduct(payload)) throw invalidDelivery(topic);
        const record = wooCatalogRecord(payload);
        if (record === undefined) throw invalidDelivery(topic, 'a product without a name');
        return this.writes.products(shopId, topic, record, { delivery: id }, now);
      }
      case 'product.deleted':
        if (!isWooDeletion(payload)) throw invalidDelivery(topic);
        return this.writes.command(shopId, { kind: 'remove-product', productId: wooId(payload.id) }, id, now);
      case 'order.created':
      case 'order.updated': {
        if (!isWooOrder(payload)) throw invalidDelivery(topic);
        const outcome = wooOrderOutcome(payload);
        if (outcome.kind === 'purchases') return this.writes.purchases(shopId, topic, outcome.events, now);
        if (outcome.kind === 'cancelled') return this.writes.command(shopId, { kind: 'cancel-order', orderId: outcome.orderId }, id, now);
        return 'unchanged';
      }
      default:
        return 'ignored';
    }
  }
}
