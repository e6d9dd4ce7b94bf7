// The shop's integrations (secret key): its connection to a Shopify or WooCommerce store
// (PUT/GET/DELETE /api/integrations/shopify|woocommerce) and its scheduled product feed
// (/api/integrations/feed); and the platforms' webhook deliveries (POST /webhooks/shopify and
// /webhooks/woocommerce), admitted by the route pipeline by their signature over the raw body.
import type { ConnectionSettings, DeliveryAnswer } from '../../api/integrations.js';
import type { PlatformConnections } from '../../app/platform-connections.js';
import type { Principal } from '../../app/principal.js';
import type { Handler, SignatureCheck, SignedCaller } from '../../transport/route.js';
import type { HttpDeps } from '../deps.js';

/** A connection's body: a domain or address and a secret, with room to spare. */
export const MAX_CONNECTION_BODY_BYTES = 4 * 1024;
/** A feed's body: a URL of at most 2 KiB and an interval. */
export const MAX_FEED_BODY_BYTES = 4 * 1024;
/** A delivery's body: a large order or product is a few hundred KiB. */
export const MAX_WEBHOOK_BODY_BYTES = 2 * 1024 * 1024;

/** The headers of a Shopify delivery the route reads (lower-case), beside its signature. */
export const SHOPIFY_HEADERS = ['x-shopify-topic', 'x-shopify-shop-domain', 'x-shopify-webhook-id'];
export const SHOPIFY_SIGNATURE = 'x-shopify-hmac-sha256';
/** The headers of a WooCommerce delivery the route reads (lower-case), beside its signature. */
export const WOO_HEADERS = ['x-wc-webhook-topic', 'x-wc-webhook-source', 'x-wc-webhook-delivery-id'];
export const WOO_SIGNATURE = 'x-wc-webhook-signature';

type Platform = 'shopify' | 'woocommerce';

const connections = (deps: HttpDeps, platform: Platform): PlatformConnections => deps.integrations[platform].connections;

export function getConnection(platform: Platform): (deps: HttpDeps) => Handler<Principal> {
  return (deps) => (call) => call.json(JSON.stringify(connections(deps, platform).view(call.principal.shopId, deps.clock())));
}

export function putConnection(platform: Platform): (deps: HttpDeps) => Handler<Principal, ConnectionSettings> {
  return (deps) => async (call) => call.json(JSON.stringify(await connections(deps, platform).connect(call.principal.shopId, call.body, deps.clock())));
}

export function deleteConnection(platform: Platform): (deps: HttpDeps) => Handler<Principal> {
  return (deps) => async (call) => call.json(JSON.stringify(await connections(deps, platform).disconnect(call.principal.shopId, deps.clock())));
}

export function getFeed(deps: HttpDeps): Handler<Principal> {
  return (call) => call.json(JSON.stringify(deps.integrations.feeds.view(call.principal.shopId)));
}

export function putFeed(deps: HttpDeps): Handler<Principal, { url: string; everyMinutes: number }> {
  return async (call) => call.json(JSON.stringify(await deps.integrations.feeds.set(call.principal.shopId, call.body, deps.clock())));
}

export function deleteFeed(deps: HttpDeps): Handler<Principal> {
  return async (call) => call.json(JSON.stringify(await deps.integrations.feeds.clear(call.principal.shopId, deps.clock())));
}

/** A header as the handler needs it: undefined when absent. */
const header = (headers: Readonly<Record<string, string>> | undefined, name: string): string | undefined => {
  const value = headers?.[name];
  return value === undefined || value === '' ? undefined : value;
};

const answer = (outcome: DeliveryAnswer['outcome']) => JSON.stringify({ outcome } satisfies DeliveryAnswer);

export function verifyShopify(deps: HttpDeps): SignatureCheck {
  return (request, body) => deps.integrations.shopify.webhooks.verify(header(request.headers, 'x-shopify-shop-domain'), header(request.headers, SHOPIFY_SIGNATURE), body, deps.clock());
}

export function postShopifyWebhook(deps: HttpDeps): Handler<SignedCaller, Buffer> {
  return async (call) => {
    // Shopify's verify never answers a handshake; the type allows one.
    if (call.principal.handshake) return call.json(answer('ignored'));
    const { headers } = call.request;
    const delivery = { topic: header(headers, 'x-shopify-topic'), webhookId: header(headers, 'x-shopify-webhook-id'), body: call.body };
    call.json(answer(await deps.integrations.shopify.webhooks.receive(call.principal.shopId, delivery, deps.clock())));
  };
}

export function verifyWoo(deps: HttpDeps): SignatureCheck {
  return (request, body) => {
    const { headers } = request;
    return deps.integrations.woocommerce.webhooks.verify(header(headers, 'x-wc-webhook-source'), header(headers, WOO_SIGNATURE), header(headers, 'x-wc-webhook-topic'), body, deps.clock());
  };
}

export function postWooWebhook(deps: HttpDeps): Handler<SignedCaller, Buffer> {
  return async (call) => {
    if (call.principal.handshake) return call.json(answer('ignored'));
    const { headers } = call.request;
    const delivery = { topic: header(headers, 'x-wc-webhook-topic'), deliveryId: header(headers, 'x-wc-webhook-delivery-id'), body: call.body };
    call.json(answer(await deps.integrations.woocommerce.webhooks.receive(call.principal.shopId, delivery, deps.clock())));
  };
}
