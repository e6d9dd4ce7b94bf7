// The parts of Shopify's Admin API resources Pairwise reads, as its webhooks deliver them and its REST
// API (products.json, orders.json) answers them: typia validators over exactly these fields (a payload
// carries many more, which are ignored). Shopify sends ids as JSON numbers; ids are accepted as
// strings too (a proxy or a replay tool may have turned them into strings), and read through shopifyId.
import typia, { type tags } from 'typia';

/** A Shopify id: a positive integer, as a number or a string of digits. */
export type ShopifyId = (number & tags.Type<'uint64'>) | (string & tags.Pattern<'^[0-9]{1,20}$'>);
/** A decimal amount as Shopify writes it ("19.99"), or as a number. */
type Money = (string & tags.MaxLength<40>) | number;
/** An ISO 8601 date-time with an offset, as Shopify writes them ("2024-01-15T10:30:00-05:00"). */
type DateTime = string & tags.MaxLength<40>;

export interface ShopifyVariant {
  id?: ShopifyId;
  price?: Money | null;
  compare_at_price?: Money | null;
  position?: number;
  /** "deny": no sale without stock; "continue": sold when out of stock too. */
  inventory_policy?: string | null;
  /** "shopify" (or a fulfilment service's handle) when stock is tracked, null when it is not. */
  inventory_management?: string | null;
  inventory_quantity?: number | null;
}

export interface ShopifyImage {
  src?: string | null;
  position?: number | null;
}

export interface ShopifyProduct {
  id: ShopifyId;
  title?: string | null;
  handle?: string | null;
  vendor?: string | null;
  product_type?: string | null;
  /** Comma-separated, as Shopify stores them ("Emotive, Flash Memory, MP3"). */
  tags?: string | null;
  /** "active", "archived" or "draft"; only active products are for sale. */
  status?: string | null;
  /** null for an unpublished product (the online store does not show it). */
  published_at?: DateTime | null;
  updated_at?: DateTime | null;
  variants?: ShopifyVariant[] | null;
  images?: ShopifyImage[] | null;
  image?: ShopifyImage | null;
}

/** products/delete carries the id alone. */
export interface ShopifyProductDeletion {
  id: ShopifyId;
}

export interface ShopifyLineItem {
  id: ShopifyId;
  /** null for a custom item (sold without a product). */
  product_id?: ShopifyId | null;
  quantity?: number | null;
  /** The unit price, before discounts. */
  price?: Money | null;
}

export interface ShopifyNoteAttribute {
  name: string;
  value?: string | number | null;
}

export interface ShopifyOrder {
  id: ShopifyId;
  created_at?: DateTime | null;
  processed_at?: DateTime | null;
  cancelled_at?: DateTime | null;
  /** A test order (Shopify's Bogus Gateway): not a sale. */
  test?: boolean | null;
  currency?: string | null;
  customer?: { id: ShopifyId } | null;
  line_items?: ShopifyLineItem[] | null;
  /** The cart's attributes, as the checkout kept them (the widget records its recIds there). */
  note_attributes?: ShopifyNoteAttribute[] | null;
}

/** customers/redact and customers/data_request (the latter with data_request.id). */
export interface ShopifyCustomerRequest {
  shop_domain: string;
  customer: { id: ShopifyId };
  orders_to_redact?: ShopifyId[] | null;
  orders_requested?: ShopifyId[] | null;
  data_request?: { id: ShopifyId } | null;
}

/** shop/redact, sent 48 hours after the app is uninstalled. */
export interface ShopifyShopRedact {
  shop_domain: string;
}

export const isShopifyProduct = typia.createIs<ShopifyProduct>();
export const isShopifyProductDeletion = typia.createIs<ShopifyProductDeletion>();
export const isShopifyOrder = typia.createIs<ShopifyOrder>();
export const isShopifyCustomerRequest = typia.createIs<ShopifyCustomerRequest>();
export const isShopifyShopRedact = typia.createIs<ShopifyShopRedact>();

/** A Shopify id as the bare id Pairwise keeps (the digits). */
export function shopifyId(id: ShopifyId): string {
  return typeof id === 'number' ? String(id) : id;
}
