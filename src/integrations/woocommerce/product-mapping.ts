// A WooCommerce product as a catalog record of PUT /api/products: name, slug, price and regular price,
// categories as collections, tags, the first image, brand, and whether it is for sale. Pure.
import type { WireProduct } from '../../api/product.js';
import { gmtTime, wooId, type WooProduct, type WooTerm } from './payloads.js';

/** The catalog's handle syntax; a slug outside it (WooCommerce percent-encodes non-Latin slugs) is left to be made from the title. */
const HANDLE = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,254}$/;
const AMOUNT = /^[0-9]{1,12}(\.[0-9]{1,4})?$/;

function amount(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  return AMOUNT.test(text) ? text : null;
}

function names(terms: readonly WooTerm[] | null | undefined): string[] {
  const list = (terms ?? []).map((t) => t.name?.trim().slice(0, 255) ?? '').filter((name) => name !== '');
  return [...new Set(list)].slice(0, 250);
}

/** For sale: published, not hidden from the catalog, purchasable and not out of stock (back orders sell). */
export function wooAvailable(product: WooProduct): boolean {
  return (product.status ?? 'publish') === 'publish' && product.catalog_visibility !== 'hidden' && product.purchasable !== false && product.stock_status !== 'outofstock';
}

/** The catalog record of `product`; undefined when it has no name (the catalog needs a title). */
export function wooCatalogRecord(product: WooProduct): WireProduct | undefined {
  const title = product.name?.trim();
  if (!title) return undefined;
  const price = amount(product.price);
  const regular = amount(product.regular_price);
  const record: WireProduct = {
    id: `gid://woocommerce/Product/${wooId(product.id)}`,
    title: title.slice(0, 512),
    handle: product.slug && HANDLE.test(product.slug) ? product.slug : null,
    image: product.images?.find((image) => image.src)?.src ?? null,
    price,
    // On sale: the regular price is what the sale is compared with.
    compareAtPrice: price !== null && regular !== null && Number(regular) > Number(price) ? regular : null,
    vendor: names(product.brands)[0] ?? null,
    productType: null,
    tags: names(product.tags),
    collections: (product.categories ?? []).map((c) => `gid://woocommerce/Collection/${wooId(c.id)}`),
    available: wooAvailable(product),
  };
  const updated = gmtTime(product.date_modified_gmt);
  if (updated !== undefined) record.sourceUpdatedAt = updated;
  return record;
}
