// Shopify's webhook deliveries (POST /webhooks/shopify) turned into the shop's commands and events:
// the shop found by X-Shopify-Shop-Domain, the signature checked over the exact bytes before they are
// parsed, then each topic mapped (integrations/shopify/) and written like the REST API writes, durably
// and applied before the answer, so a 200 is never lost. Shopify delivers at least once: a delivery
// id already taken (X-Shopify-Webhook-Id) changes nothing, in the same transaction that would.
import { parseCatalog } from '../api/product.js';
import { AppError } from '../errors.js';
import { orderEvents } from '../integrations/shopify/order-mapping.js';
import {
  isShopifyCustomerRequest,
  isShopifyOrder,
  isShopifyProduct,
  isShopifyProductDeletion,
  shopifyId,
} from '../integrations/shopify/payloads.js';
import { toCatalogRecord } from '../integrations/shopify/product-mapping.js';
import { verifyHmacSignature } from '../integrations/hmac-signature.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { LogApplier } from '../ingest/log-applier.js';
import { deliveryKey, type ShopCommand } from '../store/shop-command.js';
import type { ShopLog } from '../store/shop-log.js';
import type { ShopStore } from '../store/shop-store.js';
import { acceptedSecrets } from '../store/shopify-connection.js';
import type { ShopErasure } from './shop-erasure.js';
import type { ShopifyConnections } from './shopify-connections.js';
import { trackBatch } from './track-events.js';

/** A delivery as received: its headers and its body's exact bytes. */
export interface ShopifyDelivery {
  topic: string | undefined;
  domain: string | undefined;
  webhookId: string | undefined;
  hmac: string | undefined;
  body: Uint8Array;
}

/** What a delivery did: `applied` (it changed the shop), `unchanged` (nothing new in it), `duplicate` (its id was taken before), `ignored` (a topic Pairwise does not take). */
export type DeliveryOutcome = 'applied' | 'unchanged' | 'duplicate' | 'ignored';

/** The topics taken even after the app was uninstalled: Shopify's mandatory compliance webhooks. */
const COMPLIANCE = new Set(['customers/redact', 'customers/data_request', 'shop/redact']);
/** Longest X-Shopify-Webhook-Id kept (Shopify's are UUIDs). */
const MAX_WEBHOOK_ID = 128;

export interface ShopifyWebhooksDeps {
  connections: ShopifyConnections;
  shops: ShopStore;
  log: ShopLog;
  applier: LogApplier;
  pipeline: EventPipeline;
  shopErasure: ShopErasure;
  gidPlatform: string;
}

export class ShopifyWebhooks {
  /** Deliveries taken since start, by topic and outcome (for /metrics). */
  readonly counts = new Map<string, number>();

  constructor(readonly deps: ShopifyWebhooksDeps) {}

  /**
   * Takes one delivery: throws AppError('unauthorized') for an unknown domain or a signature that does
   * not verify (nothing stored), ('invalid_json') or ('invalid_webhook') for a signed body that is not
   * the topic's payload, ('unavailable') when the storage refuses; else resolves once it is durable
   * and applied.
   */
  async receive(delivery: ShopifyDelivery, now: number): Promise<DeliveryOutcome> {
    const shopId = delivery.domain === undefined ? undefined : this.deps.connections.shopOf(delivery.domain);
    const connection = shopId === undefined ? undefined : this.deps.shops.getShop(shopId)?.shopify;
    if (shopId === undefined || connection === undefined) throw new AppError('unauthorized', 'no shop is connected to this X-Shopify-Shop-Domain');
    if (!verifyHmacSignature(delivery.body, delivery.hmac, acceptedSecrets(connection, now))) {
      throw new AppError('unauthorized', 'X-Shopify-Hmac-Sha256 is missing or does not sign this body with the shop\'s webhook secret');
    }
    const topic = delivery.topic ?? '';
    const outcome = connection.uninstalledAt !== undefined && !COMPLIANCE.has(topic) ? 'ignored' : await this.#take(shopId, topic, delivery, now);
    const key = `${topic}\u0000${outcome}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return outcome;
  }

  async #take(shopId: string, topic: string, delivery: ShopifyDelivery, now: number): Promise<DeliveryOutcome> {
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(delivery.body).toString('utf8'));
    } catch {
      throw new AppError('invalid_json', 'the delivery\'s body is not JSON');
    }
    const once = (command: ShopCommand): ShopCommand =>
      delivery.webhookId === undefined || delivery.webhookId.length > MAX_WEBHOOK_ID ? command : { kind: 'once', deliveryId: `shopify:${delivery.webhookId}`, command };
    switch (topic) {
      case 'products/create':
      case 'products/update': {
        if (!isShopifyProduct(payload)) throw invalid(topic);
        const record = toCatalogRecord(payload);
        if (record === undefined) throw invalid(topic, 'a product without a title');
        const parsed = parseCatalog({ products: [record] }, this.deps.gidPlatform, now);
        if (!parsed.ok) throw new AppError('invalid_webhook', `${topic}: ${parsed.errors[0]!.pointer} ${parsed.errors[0]!.detail}`, parsed.errors);
        // A product update does not carry the product's collections: it keeps those a sync stored.
        return this.#append(shopId, once({ kind: 'put-products', products: parsed.products, keepCollections: true }), now);
      }
      case 'products/delete':
        if (!isShopifyProductDeletion(payload)) throw invalid(topic);
        return this.#append(shopId, once({ kind: 'remove-product', productId: shopifyId(payload.id) }), now);
      case 'orders/create':
      case 'orders/paid': {
        if (!isShopifyOrder(payload)) throw invalid(topic);
        const mapped = orderEvents(payload);
        if (!mapped.ok) return 'unchanged';
        // Signed by Shopify: trusted like the merchant's own server (its revenue is merchant-reported).
        const outcome = await trackBatch(this.deps.pipeline, shopId, mapped.events, now, (claimed) => claimed, 'secret');
        if (outcome.rejected > 0) {
          const refused = outcome.results.find((r) => !r.success);
          throw new AppError('invalid_webhook', `${topic}: ${refused && !refused.success ? `${refused.error.pointer} ${refused.error.detail}` : 'an event was refused'}`);
        }
        return outcome.accepted > 0 ? 'applied' : 'duplicate';
      }
      case 'orders/cancelled':
        if (!isShopifyOrder(payload)) throw invalid(topic);
        return this.#append(shopId, once({ kind: 'cancel-order', orderId: shopifyId(payload.id) }), now);
      case 'customers/redact':
        if (!isShopifyCustomerRequest(payload)) throw invalid(topic);
        return this.#append(shopId, once({ kind: 'erase-customer', customerId: shopifyId(payload.customer.id) }), now);
      case 'customers/data_request': {
        if (!isShopifyCustomerRequest(payload)) throw invalid(topic);
        const request = { customerId: shopifyId(payload.customer.id), requestId: payload.data_request ? shopifyId(payload.data_request.id) : (delivery.webhookId ?? String(now)), requestedAt: now };
        return (await this.deps.shops.changeShopify(shopId, { action: 'data-request', request }, now)) ? 'applied' : 'unchanged';
      }
      case 'shop/redact':
        await this.deps.shopErasure.erase(shopId);
        return 'applied';
      case 'app/uninstalled':
        return (await this.deps.shops.changeShopify(shopId, { action: 'uninstalled', at: now }, now)) ? 'applied' : 'unchanged';
      default:
        return 'ignored';
    }
  }

  /** Appends the command durably and applies the log through it; a delivery taken before is not appended again. */
  async #append(shopId: string, command: ShopCommand, now: number): Promise<DeliveryOutcome> {
    // Only to answer `duplicate` without a commit: the append's transaction checks again.
    if (command.kind === 'once' && this.deps.shops.dbs.dedup.get([shopId, deliveryKey(command.deliveryId)]) !== undefined) return 'duplicate';
    let done;
    try {
      done = await this.deps.log.append(shopId, command, now);
    } catch (cause) {
      throw new AppError('unavailable', `the delivery could not be stored: ${(cause as Error).message}`);
    }
    if (done === undefined) return 'unchanged';
    await this.deps.applier.applyThrough(shopId, done.position);
    return 'applied';
  }
}

function invalid(topic: string, what = 'a body that is not its payload'): AppError {
  return new AppError('invalid_webhook', `${topic}: ${what}`);
}
