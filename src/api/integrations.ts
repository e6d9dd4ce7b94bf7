// PUT /api/integrations/shopify and /woocommerce: the wire types of a shop's connection to a
// platform's store, their typia validators, and what GET shows of a connection (never a secret).
import typia, { type tags } from 'typia';
import type { FieldError } from '../errors.js';
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
