// One item of a Google Merchant Center product feed (its attributes by name, the `g:` prefix left
// out) as a catalog record of PUT /api/products, or why it cannot be one. A feed lists variants as
// items of one item_group_id: their record is the group's product (feed-groups.ts merges them). A
// feed exported by Shopify's Google channel names items shopify_<country>_<product>_<variant>: their
// record is the Shopify product the storefront names.
import type { WireProduct } from '../../api/product.js';
import { slugify } from '../../api/product.js';

/** A feed item: attribute name (lower case, no namespace prefix) → its text. */
export type FeedItem = Record<string, string>;

/** An item's record with what merging its group needs. */
export interface FeedRecord {
  /** The product this item is (a variant) of: item_group_id, or the item's own id. */
  productKey: string;
  record: WireProduct;
  /** Whether this variant can be bought (for which variant's price shows). */
  inStock: boolean;
}

const SHOPIFY_ITEM = /^shopify_[A-Za-z]{2}_(\d{1,20})_(\d{1,20})$/;
const BARE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** "15.00 USD", "15 USD", "USD 15.00": an amount with a point for decimals and an ISO 4217 currency. */
const PRICE = /^(?:([0-9]{1,12}(?:\.[0-9]{1,4})?)\s+([A-Z]{3})|([A-Z]{3})\s+([0-9]{1,12}(?:\.[0-9]{1,4})?))$/;
const AVAILABLE = new Set(['in_stock', 'in stock', 'preorder', 'backorder']);
const KNOWN_AVAILABILITY = new Set([...AVAILABLE, 'out_of_stock', 'out of stock']);
const CUSTOM_LABELS = ['custom_label_0', 'custom_label_1', 'custom_label_2', 'custom_label_3', 'custom_label_4'];

/** A feed's price as a catalog amount ("15.00"), or why it is not one. */
export function feedPrice(text: string): { amount: string; currency: string } | { error: string } {
  const match = PRICE.exec(text.trim());
  if (match === null) {
    if (/^[0-9]+,[0-9]{1,4}(\s|$)/.test(text.trim())) return { error: `"${text}" has a comma for its decimals: write "15.00 EUR"` };
    return { error: `"${text}" is not an amount and its currency, such as "15.00 USD"` };
  }
  return { amount: match[1] ?? match[4]!, currency: match[2] ?? match[3]! };
}

/** The id a product takes in the catalog: the Shopify product of a Shopify-exported item, else the feed's. */
function catalogId(id: string): { id: string; platform?: string } | undefined {
  const shopify = SHOPIFY_ITEM.exec(id);
  if (shopify !== null) return { id: shopify[1]!, platform: 'shopify' };
  return BARE_ID.test(id) ? { id } : undefined;
}

/** The handle a product link ends in (…/products/<handle>), when it is one. */
function handleOf(link: string | undefined): string | null {
  const path = link === undefined ? undefined : /^https?:\/\/[^/]+(\/[^?#]*)/.exec(link)?.[1];
  const last = path?.split('/').filter((part) => part !== '').pop();
  return last !== undefined && /^[A-Za-z0-9][A-Za-z0-9._~-]{0,254}$/.test(last) ? last : null;
}

/** "Home > Decor > Lights" as its levels' collection ids: home, home-decor, home-decor-lights. */
function typeCollections(productType: string): string[] {
  const levels = productType.split('>').map((level) => level.trim()).filter((level) => level !== '');
  return levels.map((_, i) => slugify(levels.slice(0, i + 1).join(' ')).slice(0, 64)).filter((id) => BARE_ID.test(id));
}

export function feedRecord(item: FeedItem): FeedRecord | { error: string } {
  const rawId = item.id?.trim();
  if (!rawId) return { error: 'no id' };
  const title = item.title?.trim();
  if (!title) return { error: `item ${rawId}: no title` };
  const own = catalogId(rawId);
  const group = item.item_group_id?.trim();
  // Shopify's export: every variant names its product in its id, whatever item_group_id says.
  const product = own?.platform === 'shopify' ? own : group ? catalogId(group) : own;
  if (product === undefined) return { error: `item ${rawId}: ${group ? `item_group_id "${group}"` : 'the id'} must be 1-64 letters, digits, '.', '_' or '-'` };
  let price: string | null = null;
  let compareAt: string | null = null;
  if (item.price?.trim()) {
    const regular = feedPrice(item.price);
    if ('error' in regular) return { error: `item ${rawId}: price ${regular.error}` };
    price = regular.amount;
    if (item.sale_price?.trim()) {
      const sale = feedPrice(item.sale_price);
      if ('error' in sale) return { error: `item ${rawId}: sale_price ${sale.error}` };
      if (Number(sale.amount) < Number(regular.amount)) {
        price = sale.amount;
        compareAt = regular.amount;
      }
    }
  }
  const availability = item.availability?.trim().toLowerCase() ?? 'in_stock';
  if (!KNOWN_AVAILABILITY.has(availability)) return { error: `item ${rawId}: availability "${item.availability}" is not in_stock, out_of_stock, preorder or backorder` };
  const productType = item.product_type?.trim();
  const attributes: Record<string, string> = {};
  CUSTOM_LABELS.forEach((label, i) => {
    const value = item[label]?.trim();
    if (value) attributes[`customLabel${i}`] = value.slice(0, 255);
  });
  if (item.google_product_category?.trim()) attributes.googleProductCategory = item.google_product_category.trim().slice(0, 255);
  const record: WireProduct = {
    id: product.platform === undefined ? product.id : `gid://${product.platform}/Product/${product.id}`,
    title: title.slice(0, 512),
    handle: handleOf(item.link),
    image: item.image_link?.trim() && item.image_link.trim().length <= 2048 ? item.image_link.trim() : null,
    price,
    compareAtPrice: compareAt,
    vendor: item.brand?.trim().slice(0, 255) || null,
    productType: productType ? productType.split('>').pop()!.trim().slice(0, 255) || null : null,
    tags: [],
    collections: productType ? typeCollections(productType) : [],
    available: AVAILABLE.has(availability),
  };
  if (Object.keys(attributes).length > 0) record.attributes = attributes;
  return { productKey: record.id, record, inStock: record.available === true };
}
