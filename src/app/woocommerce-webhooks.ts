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

/** A delivery as admitted (see verify): its topic and id headers and its body's exact bytes. */
export interface WooDelivery {
  topic: string | undefined;
  deliveryId: string | undefined;
  body: Uint8Array;
}

/** Who a request to the webhook address comes from: a connected store's shop, or WooCommerce's ping. */
export type WooSender = { readonly shopId: string } | { readonly handshake: true };

/**
 * The ping WooCommerce sends when a webhook is saved: `webhook_id=<id>`, form-encoded and unsigned.
 * Answered 200 whoever sends it: it stores nothing.
 */
const PING = /^webhook_id=\d{1,20}$/;

/** The topics taken; others are answered `ignored` (and counted as `other`). */
const TOPICS: ReadonlySet<string> = new Set(['product.created', 'product.updated', 'product.restored', 'product.deleted', 'order.created', 'order.updated']);

export class WooWebhooks {
  constructor(
    readonly connections: PlatformConnections,
    readonly writes: PlatformWrites,
  ) {}

  /**
   * Who sent a request: the shop connected to the store it names (X-WC-Webhook-Source), whose webhook
   * secret signed its exact bytes (X-WC-Webhook-Signature); or, without a topic, WooCommerce's
   * unsigned ping. Throws AppError('unauthorized') otherwise, before anything reads the body.
   */
  verify(source: string | undefined, signature: string | undefined, topic: string | undefined, body: Uint8Array, now: number): WooSender {
    if (topic === undefined && body.length <= 40 && PING.test(Buffer.from(body).toString('latin1'))) return { handshake: true };
    return { shopId: verifiedDelivery(this.connections, source, body, signature, now, { source: 'X-WC-Webhook-Source', signature: 'X-WC-Webhook-Signature' }).shopId };
  }

  /**
   * Takes one delivery verify admitted for `shopId`: throws AppError('invalid_json') or
   * ('invalid_webhook') for a body that is not the topic's payload, ('unavailable') when the storage
   * refuses; else resolves once it is durable and applied.
   */
  async receive(shopId: string, delivery: WooDelivery, now: number): Promise<DeliveryOutcome> {
    const topic = delivery.topic ?? '';
    return this.writes.counted(shopId, 'woocommerce', TOPICS, topic, () => this.#take(shopId, topic, delivery, now));
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
