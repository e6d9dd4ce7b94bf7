// Shopify's webhook deliveries (POST /webhooks/shopify) turned into the shop's commands and events:
// the shop found by X-Shopify-Shop-Domain, the signature checked over the exact bytes before they are
// parsed, then each topic mapped (integrations/shopify/) and written like the REST API writes, durably
// and applied before the answer, so a 200 is never lost. Shopify delivers at least once: a delivery
// id already taken (X-Shopify-Webhook-Id) changes nothing, in the same transaction that would.
import { orderEvents } from '../integrations/shopify/order-mapping.js';
import {
  isShopifyCustomerRequest,
  isShopifyOrder,
  isShopifyProduct,
  isShopifyProductDeletion,
  shopifyId,
} from '../integrations/shopify/payloads.js';
import { toCatalogRecord } from '../integrations/shopify/product-mapping.js';
import type { ShopErasure } from './shop-erasure.js';
import type { PlatformConnections } from './platform-connections.js';
import { invalidDelivery, type DeliveryOutcome, type PlatformWrites } from './platform-writes.js';
import { verifiedDelivery } from './verified-delivery.js';

/** A delivery as admitted (see verify): its topic and id headers and its body's exact bytes. */
export interface ShopifyDelivery {
  topic: string | undefined;
  webhookId: string | undefined;
  body: Uint8Array;
}

/** The topics taken even after the app was uninstalled: Shopify's mandatory compliance webhooks. */
const COMPLIANCE = new Set(['customers/redact', 'customers/data_request', 'shop/redact']);
/** The topics taken; others are answered `ignored` (and counted as `other`). */
const TOPICS: ReadonlySet<string> = new Set(['products/create', 'products/update', 'products/delete', 'orders/create', 'orders/paid', 'orders/cancelled', 'app/uninstalled', ...COMPLIANCE]);
export class ShopifyWebhooks {
  constructor(
    readonly connections: PlatformConnections,
    readonly writes: PlatformWrites,
    readonly shopErasure: ShopErasure,
  ) {}

  /**
   * The shop a delivery is for: the one connected to the domain it names (X-Shopify-Shop-Domain),
   * whose webhook secret signed its exact bytes (X-Shopify-Hmac-Sha256). Throws
   * AppError('unauthorized') otherwise, before anything reads the body.
   */
  verify(domain: string | undefined, hmac: string | undefined, body: Uint8Array, now: number): { shopId: string } {
    return { shopId: verifiedDelivery(this.connections, domain, body, hmac, now, { source: 'X-Shopify-Shop-Domain', signature: 'X-Shopify-Hmac-Sha256' }).shopId };
  }

  /**
   * Takes one delivery verify admitted for `shopId`: throws AppError('invalid_json') or
   * ('invalid_webhook') for a body that is not the topic's payload, ('unavailable') when the storage
   * refuses; else resolves once it is durable and applied.
   */
  async receive(shopId: string, delivery: ShopifyDelivery, now: number): Promise<DeliveryOutcome> {
    const topic = delivery.topic ?? '';
    const uninstalled = this.connections.shops.getShop(shopId)?.shopify?.uninstalledAt !== undefined;
    return this.writes.counted(shopId, 'shopify', TOPICS, topic, async () => (uninstalled && !COMPLIANCE.has(topic) ? 'ignored' : this.#take(shopId, topic, delivery, now)));
  }

  async #take(shopId: string, topic: string, delivery: ShopifyDelivery, now: number): Promise<DeliveryOutcome> {
    const payload = this.writes.json(delivery.body);
    const id = delivery.webhookId === undefined ? undefined : `shopify:${delivery.webhookId}`;
    switch (topic) {
      case 'products/create':
      case 'products/update': {
        if (!isShopifyProduct(payload)) throw invalidDelivery(topic);
        const record = toCatalogRecord(payload);
        if (record === undefined) throw invalidDelivery(topic, 'a product without a title');
        // A product update does not carry the product's collections: it keeps those a sync stored.
        return this.writes.products(shopId, topic, record, { keepCollections: true, delivery: id }, now);
      }
      case 'products/delete':
        if (!isShopifyProductDeletion(payload)) throw invalidDelivery(topic);
        return this.writes.command(shopId, { kind: 'remove-product', productId: shopifyId(payload.id) }, id, now);
      case 'orders/create':
      case 'orders/paid': {
        if (!isShopifyOrder(payload)) throw invalidDelivery(topic);
        const mapped = orderEvents(payload);
        return mapped.ok ? this.writes.purchases(shopId, topic, mapped.events, now) : 'unchanged';
      }
      case 'orders/cancelled':
        if (!isShopifyOrder(payload)) throw invalidDelivery(topic);
        return this.writes.command(shopId, { kind: 'cancel-order', orderId: shopifyId(payload.id) }, id, now);
      case 'customers/redact':
        if (!isShopifyCustomerRequest(payload)) throw invalidDelivery(topic);
        return this.writes.command(shopId, { kind: 'erase-customer', customerId: shopifyId(payload.customer.id) }, id, now);
      case 'customers/data_request': {
        if (!isShopifyCustomerRequest(payload)) throw invalidDelivery(topic);
        const request = { customerId: shopifyId(payload.customer.id), requestId: payload.data_request ? shopifyId(payload.data_request.id) : (delivery.webhookId ?? String(now)), requestedAt: now };
        return (await this.writes.deps.shops.changeConnection(shopId, 'shopify', { action: 'data-request', request }, now)) ? 'applied' : 'unchanged';
      }
      case 'shop/redact':
        await this.shopErasure.erase(shopId);
        return 'applied';
      case 'app/uninstalled':
        return (await this.writes.deps.shops.changeConnection(shopId, 'shopify', { action: 'uninstalled', at: now }, now)) ? 'applied' : 'unchanged';
      default:
        return 'ignored';
    }
  }
}
