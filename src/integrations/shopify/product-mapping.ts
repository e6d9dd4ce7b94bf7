// A Shopify product as a catalog record of PUT /api/products: every field the catalog has, read from
// the product and its variants. Pure: the same payload always maps to the same record, whichever
// path brought it (a webhook, a page of products.json).
import type { WireProduct } from '../../api/product.js';
import { shopifyId, type ShopifyImage, type ShopifyProduct, type ShopifyVariant } from './payloads.js';

/** The catalog's handle syntax; a Shopify handle outside it (non-Latin letters) is left to be made from the title. */
const HANDLE = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,254}$/;
const MAX_TAGS = 250;
const MAX_TEXT = 255;

/** A decimal amount as the catalog takes it ("19.99"), or null when there is none or it is not one. */
function amount(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  return /^[0-9]{1,12}(\.[0-9]{1,4})?$/.test(text) ? text : null;
}

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, MAX_TEXT) : null;
}

/** Shopify's tags string ("a, b, c") as a list, each at most 255 characters, at most 250, no repeats. */
export function shopifyTags(tags: string | null | undefined): string[] {
  if (!tags) return [];
  const list = tags.split(',').map((tag) => tag.trim().slice(0, MAX_TEXT)).filter((tag) => tag !== '');
  return [...new Set(list)].slice(0, MAX_TAGS);
}

/**
 * Whether a variant can be bought now: its stock is not tracked, or it sells when out of stock
 * (inventory_policy "continue"), or some is left.
 */
export function variantSellable(variant: ShopifyVariant): boolean {
  if (variant.inventory_management === null || variant.inventory_management === undefined) return true;
  if (variant.inventory_policy === 'continue') return true;
  return (variant.inventory_quantity ?? 0) > 0;
}

/** The image shown first: the images' lowest position, else the product's `image`. */
function firstImage(images: readonly ShopifyImage[] | null | undefined, image: ShopifyImage | null | undefined): string | null {
  let best: ShopifyImage | undefined;
  for (const candidate of images ?? []) {
    if (!candidate.src) continue;
    if (best === undefined || (candidate.position ?? Infinity) < (best.position ?? Infinity)) best = candidate;
  }
  const src = best?.src ?? image?.src ?? null;
  return src !== null && src.length <= 2048 ? src : null;
}

/**
 * The variant whose price the product shows: the cheapest that can be bought ("from $9"), or the
 * cheapest of all when none can. Variants without a price are skipped.
 */
function shownVariant(variants: readonly ShopifyVariant[]): ShopifyVariant | undefined {
  let cheapest: ShopifyVariant | undefined;
  let cheapestSellable: ShopifyVariant | undefined;
  for (const variant of variants) {
    const price = amount(variant.price);
    if (price === null) continue;
    if (cheapest === undefined || Number(price) < Number(amount(cheapest.price))) cheapest = variant;
    if (variantSellable(variant) && (cheapestSellable === undefined || Number(price) < Number(amount(cheapestSellable.price)))) cheapestSellable = variant;
  }
  return cheapestSellable ?? cheapest;
}

/**
 * Whether the product is for sale: active (a payload without a status, from API versions before it,
 * counts as active), published (published_at null: hidden from the online store) and with a variant
 * that can be bought. A product without variants is judged by its status alone.
 */
export function productAvailable(product: ShopifyProduct): boolean {
  if (product.status !== undefined && product.status !== null && product.status !== 'active') return false;
  if (product.published_at === null) return false;
  const variants = product.variants ?? [];
  return variants.length === 0 || variants.some(variantSellable);
}

/**
 * The catalog record of `product`. `collections` are the ids of the collections it is in, when known
 * (a sync reads them; a product webhook does not carry them, and leaves them out so that the stored
 * ones are kept). Undefined when the product has no title (the catalog needs one).
 */
export function toCatalogRecord(product: ShopifyProduct, collections?: readonly string[]): WireProduct | undefined {
  const title = product.title?.trim();
  if (!title) return undefined;
  const variants = product.variants ?? [];
  const shown = shownVariant(variants);
  const price = amount(shown?.price);
  const compareAt = amount(shown?.compare_at_price);
  const handle = product.handle && HANDLE.test(product.handle) ? product.handle : null;
  const record: WireProduct = {
    id: `gid://shopify/Product/${shopifyId(product.id)}`,
    title: title.slice(0, 512),
    handle,
    image: firstImage(product.images, product.image),
    price,
    // Shopify keeps a compare-at price equal to or below the price on some variants: no discount to show.
    compareAtPrice: price !== null && compareAt !== null && Number(compareAt) > Number(price) ? compareAt : null,
    vendor: text(product.vendor),
    productType: text(product.product_type),
    tags: shopifyTags(product.tags),
    available: productAvailable(product),
  };
  if (collections !== undefined) record.collections = collections.map((id) => `gid://shopify/Collection/${id}`);
  if (product.updated_at) record.sourceUpdatedAt = product.updated_at;
  return record;
}
