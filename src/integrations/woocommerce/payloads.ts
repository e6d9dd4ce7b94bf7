// The parts of WooCommerce's REST API (v3) resources Pairwise reads, as its webhooks deliver them
// and /wp-json/wc/v3/products and /orders answer them: typia validators over exactly these fields (a
// payload carries many more, which are ignored). Ids are JSON numbers; amounts are decimal strings
// ("21.99", "" when unset); times come in the site's zone and in GMT (date_modified_gmt, no zone).
import typia, { type tags } from 'typia';

export type WooId = (number & tags.Type<'uint64'>) | (string & tags.Pattern<'^[0-9]{1,20}$'>);
type Text = string & tags.MaxLength<2048>;
/** A GMT date-time without a zone, as WooCommerce writes its *_gmt fields ("2017-03-23T20:01:14"). */
type GmtDateTime = string & tags.MaxLength<40>;

export interface WooTerm {
  id: WooId;
  name?: string | null;
}

export interface WooProduct {
  id: WooId;
  name?: string | null;
  slug?: string | null;
  permalink?: Text | null;
  date_modified_gmt?: GmtDateTime | null;
  /** "simple", "variable", "grouped", "external". */
  type?: string | null;
  /** "publish", "draft", "pending", "private", "trash": only published products are for sale. */
  status?: string | null;
  /** "visible", "catalog", "search", "hidden". */
  catalog_visibility?: string | null;
  /** The price the shopper pays now (the sale price while on sale; a variable product's lowest). */
  price?: string | number | null;
  regular_price?: string | number | null;
  sale_price?: string | number | null;
  purchasable?: boolean | null;
  /** "instock", "outofstock", "onbackorder". */
  stock_status?: string | null;
  categories?: WooTerm[] | null;
  tags?: WooTerm[] | null;
  /** WooCommerce's brands (9.6 and later). */
  brands?: WooTerm[] | null;
  images?: { src?: Text | null }[] | null;
}

export interface WooLineItem {
  id: WooId;
  /** 0 when the product was deleted since. */
  product_id?: WooId | null;
  quantity?: number | null;
  /** The unit price paid, a number. */
  price?: number | string | null;
}

export interface WooOrder {
  id: WooId;
  /** "pending", "processing", "on-hold", "completed", "cancelled", "refunded", "failed", "trash". */
  status?: string | null;
  /** 0 for a guest's order. */
  customer_id?: WooId | null;
  date_created_gmt?: GmtDateTime | null;
  date_paid_gmt?: GmtDateTime | null;
  line_items?: WooLineItem[] | null;
}

/** product.deleted (and an order's deletion) carry the id alone. */
export interface WooDeletion {
  id: WooId;
}

export const isWooProduct = typia.createIs<WooProduct>();
export const isWooOrder = typia.createIs<WooOrder>();
export const isWooDeletion = typia.createIs<WooDeletion>();

export function wooId(id: WooId): string {
  return typeof id === 'number' ? String(id) : id;
}

/** A *_gmt time as ISO 8601 with its zone (WooCommerce leaves the Z out); undefined when it is not one. */
export function gmtTime(value: string | null | undefined): string | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(value)) return undefined;
  return `${value}Z`;
}
