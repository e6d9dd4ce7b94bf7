// PUT /api/integrations/shopify, /woocommerce and /feed: the wire types of a shop's connection to a
// platform's store and of its scheduled product feed, their typia validators, what GET shows of them
// (never a secret), and what a webhook delivery is answered.
import typia, { type tags } from 'typia';
import { invalidFields, type FieldError } from '../errors.js';
import { typiaPathToPointer } from './json-pointer.js';

/** A shop's Shopify domain: its permanent <shop>.myshopify.com name (webhooks name it in X-Shopify-Shop-Domain). */
export const SHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;

type Secret = string & tags.MinLength<8> & tags.MaxLength<256>;

export interface WireShopifyConnection {
  /** The shop's <shop>.myshopify.com domain (not a custom domain). */
  shopDomain: string & tags.MaxLength<80>;
  /** The secret Shopify signs the shop's webhooks with: the custom app's API secret key (or the one shown under Settings → Notifications → Webhooks). */
  webhookSecret: Secret;
}

export interface WireWooConnection {
  /** The store's address as WordPress names it (Settings → General → Site Address), e.g. https://shop.example. */
  storeUrl: string & tags.MaxLength<2048>;
  /** The secret given to the store's webhooks (each webhook's Secret field). */
  webhookSecret: Secret;
}

/** GET /api/integrations/{platform}. */
export interface ConnectionView {
  connected: boolean;
  /** Shopify: the store's domain; absent when never connected. */
  shopDomain?: string;
  /** WooCommerce: the store's address; absent when never connected. */
  storeUrl?: string;
  connectedAt?: string & tags.Format<'date-time'>;
  /** When the platform said the app was uninstalled: only its compliance webhooks are taken since. */
  uninstalledAt?: string & tags.Format<'date-time'>;
  /** After a rotation: until when deliveries signed with the previous secret are still taken. */
  previousSecretValidUntil?: string & tags.Format<'date-time'>;
  /** Shopify: customers' data requests (customers/data_request), newest first; `export` is the path of the customer's export (GET, secret key). */
  dataRequests?: { customerId: string; requestId: string; requestedAt: string & tags.Format<'date-time'>; export: string }[];
}

export type ConnectionParse = { ok: true; source: string; secret: string } | { ok: false; errors: FieldError[] };

function fieldErrors(errors: { path: string; expected: string; value: unknown }[]): FieldError[] {
  return errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: e.value === undefined ? 'is required' : `must be ${e.expected.replace(/ & [A-Za-z]+<[^>]*>/g, '').replace(/"/g, "'")}` }));
}

const validateShopify = typia.createValidate<WireShopifyConnection>();
const validateWoo = typia.createValidate<WireWooConnection>();

/** Never throws. The domain is taken in lower case. */
export function parseShopifyConnection(input: unknown): ConnectionParse {
  const result = validateShopify(input);
  if (!result.success) return { ok: false, errors: fieldErrors(result.errors) };
  const domain = result.data.shopDomain.trim().toLowerCase();
  if (!SHOPIFY_DOMAIN.test(domain)) return { ok: false, errors: [{ pointer: '/shopDomain', detail: "must be the shop's <shop>.myshopify.com domain" }] };
  return { ok: true, source: domain, secret: result.data.webhookSecret };
}

/**
 * A store address as deliveries name it (X-WC-Webhook-Source, WordPress's home URL with a trailing
 * slash): scheme and host in lower case, the path without its trailing slash; undefined when it is not
 * an http(s) URL without credentials, query or fragment.
 */
export function storeUrlKey(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) return undefined;
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** Never throws. */
export function parseWooConnection(input: unknown): ConnectionParse {
  const result = validateWoo(input);
  if (!result.success) return { ok: false, errors: fieldErrors(result.errors) };
  const source = storeUrlKey(result.data.storeUrl);
  if (source === undefined) return { ok: false, errors: [{ pointer: '/storeUrl', detail: "must be the store's http:// or https:// address, such as https://shop.example" }] };
  return { ok: true, source, secret: result.data.webhookSecret };
}

/** PUT /api/integrations/shopify's body, validated (throws invalid_integration). */
export function shopifyConnectionBody(input: unknown): ConnectionSettings {
  return connectionBody(parseShopifyConnection(input));
}

/** PUT /api/integrations/woocommerce's body, validated (throws invalid_integration). */
export function wooConnectionBody(input: unknown): ConnectionSettings {
  return connectionBody(parseWooConnection(input));
}

/** A connection as validated: the store's source as deliveries name it, and the webhook secret. */
export interface ConnectionSettings {
  source: string;
  secret: string;
}

function connectionBody(parsed: ConnectionParse): ConnectionSettings {
  if (!parsed.ok) throw invalidFields('invalid_integration', parsed.errors, 'body');
  return { source: parsed.source, secret: parsed.secret };
}

/** How often a feed may be pulled: every 15 minutes at most, once a week at least. */
export const FEED_MINUTES = { min: 15, max: 10_080, default: 1_440 } as const;

export interface WireFeed {
  /** The feed's http(s) address: a Google Merchant Center product feed, XML (RSS 2.0 or Atom) or tab-separated, gzipped or not. */
  url: string & tags.MaxLength<2048>;
  /** Minutes between pulls (15 to 10080); default 1440, daily. */
  everyMinutes?: number & tags.Type<'uint32'> & tags.Minimum<15> & tags.Maximum<10080>;
}

/** What one pull did. */
export interface FeedPullView {
  startedAt: string & tags.Format<'date-time'>;
  endedAt: string & tags.Format<'date-time'>;
  /** Whether the feed was read to its end (an unchanged feed, 304, counts). */
  complete: boolean;
  notModified?: boolean;
  /** Products listed, stored as new or changed, refused, and made unavailable for no longer being listed. */
  seen: number;
  changed: number;
  refused: number;
  unlisted: number;
  /** The first refusals, `line: reason`. */
  refusals?: string[];
  /** Why the pull failed, when it did. */
  error?: string;
}

/** GET /api/integrations/feed. */
export interface FeedView {
  configured: boolean;
  url?: string;
  everyMinutes?: number;
  /** When the next pull is due (the first one: at once). */
  nextPullAt?: string & tags.Format<'date-time'>;
  last?: FeedPullView;
}

const validateFeed = typia.createValidate<WireFeed>();

/** PUT /api/integrations/feed's body: an http(s) URL and an interval; throws invalid_integration. */
export function feedBody(input: unknown): { url: string; everyMinutes: number } {
  const result = validateFeed(input);
  if (!result.success) throw invalidFields('invalid_integration', fieldErrors(result.errors), 'body');
  let url: URL;
  try {
    url = new URL(result.data.url.trim());
  } catch {
    throw invalidFields('invalid_integration', [{ pointer: '/url', detail: 'must be an http:// or https:// URL' }], 'body');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hash) throw invalidFields('invalid_integration', [{ pointer: '/url', detail: 'must be an http:// or https:// URL without a fragment' }], 'body');
  return { url: url.href, everyMinutes: result.data.everyMinutes ?? FEED_MINUTES.default };
}

/** A webhook delivery's answer (200): what it did. */
export interface DeliveryAnswer {
  /** `applied` (it changed the shop), `unchanged` (nothing new in it), `duplicate` (its id, or its order's lines, were taken before), `ignored` (a topic Pairwise does not take, or the app was uninstalled). */
  outcome: 'applied' | 'unchanged' | 'duplicate' | 'ignored';
}
