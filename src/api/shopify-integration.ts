// PUT /api/integrations/shopify: the wire types of a shop's Shopify connection, the typia validator,
// and what GET shows of it (never a secret).
import typia, { type tags } from 'typia';
import type { FieldError } from '../errors.js';
import { typiaPathToPointer } from './json-pointer.js';

/** A shop's Shopify domain: its permanent <shop>.myshopify.com name (webhooks name it in X-Shopify-Shop-Domain). */
export const SHOPIFY_DOMAIN = /^[a-z0-9][a-z0-9-]{0,62}\.myshopify\.com$/;

export interface WireShopifyConnection {
  /** The shop's <shop>.myshopify.com domain (not a custom domain). */
  shopDomain: string & tags.MaxLength<80>;
  /** The secret Shopify signs the shop's webhooks with: the custom app's API secret key (or the one shown under Settings → Notifications → Webhooks). */
  webhookSecret: string & tags.MinLength<8> & tags.MaxLength<256>;
}

/** GET /api/integrations/shopify. */
export interface ShopifyConnectionView {
  connected: boolean;
  /** Absent when the shop has never been connected. */
  shopDomain?: string;
  connectedAt?: string & tags.Format<'date-time'>;
  /** When Shopify said the app was uninstalled: only its compliance webhooks are taken since. */
  uninstalledAt?: string & tags.Format<'date-time'>;
  /** After a rotation: until when deliveries signed with the previous secret are still taken. */
  previousSecretValidUntil?: string & tags.Format<'date-time'>;
  /** Customers' data requests (customers/data_request), newest first: `export` is the path of the customer's export (GET, secret key). */
  dataRequests: { customerId: string; requestId: string; requestedAt: string & tags.Format<'date-time'>; export: string }[];
}

export type ShopifyConnectionParse = { ok: true; domain: string; secret: string } | { ok: false; errors: FieldError[] };

const validate = typia.createValidate<WireShopifyConnection>();

/** Never throws: every problem is a field error with its JSON pointer. The domain is taken in lower case. */
export function parseShopifyConnection(input: unknown): ShopifyConnectionParse {
  const result = validate(input);
  if (!result.success) {
    return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: e.value === undefined ? 'is required' : `must be ${e.expected.replace(/ & [A-Za-z]+<[^>]*>/g, '').replace(/"/g, "'")}` })) };
  }
  const domain = result.data.shopDomain.trim().toLowerCase();
  if (!SHOPIFY_DOMAIN.test(domain)) return { ok: false, errors: [{ pointer: '/shopDomain', detail: 'must be the shop\'s <shop>.myshopify.com domain' }] };
  return { ok: true, domain, secret: result.data.webhookSecret };
}
