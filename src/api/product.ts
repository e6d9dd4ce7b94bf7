// The catalog wire types (PUT /api/products), their typia validator and normalization into engine Products.
import typia, { type tags } from 'typia';
import { AppError, type FieldError } from '../errors.js';
import type { Product } from '../engine/product.js';
import { ISO_8601_WITH_ZONE } from './date-time.js';
import { typiaPathToPointer } from './json-pointer.js';
import { parseId } from './product-id.js';
import { isReservedAttributeName } from '../engine/filters/attributes.js';

type Text<N extends number> = string & tags.MaxLength<N>;
type Amount = (string & tags.Pattern<'^[0-9]{1,12}(\\.[0-9]{1,4})?$'>) | (number & tags.Minimum<0>);
/** The same pattern, for numeric amounts: as strings they must read as decimals too (not "1e-7", "Infinity"). */
const DECIMAL_AMOUNT = /^[0-9]{1,12}(\.[0-9]{1,4})?$/;
const AMOUNT_DETAIL = 'must be a decimal amount such as "19.99"';

export interface WireProduct {
  id: string & tags.MinLength<1> & tags.MaxLength<200>;
  title: string & tags.MinLength<1> & tags.MaxLength<512>;
  handle?: (Text<255> & tags.Pattern<'^[A-Za-z0-9][A-Za-z0-9._~-]*$'>) | null;
  image?: Text<2048> | null;
  price?: Amount | null;
  compareAtPrice?: Amount | null;
  vendor?: Text<255> | null;
  productType?: Text<255> | null;
  tags?: (Text<255>[] & tags.MaxItems<250>) | null;
  collections?: (Text<200>[] & tags.MaxItems<250>) | null;
  available?: boolean | null;
  /** Bought again and again (consumables): personalized may offer it after a purchase. */
  repurchasable?: boolean | null;
  /**
   * The merchant's own attributes, filterable by name (`material:wool`, `rating >= 4`): at most
   * 32, each name a letter then letters, digits or _ (at most 64, not a built-in attribute's name),
   * each value a string of at most 255 characters or a finite number.
   */
  attributes?: Record<string, Text<255> | number> | null;
  /**
   * When the product last changed where it is kept (a platform's updated_at): ISO 8601 with a time
   * zone, or epoch ms. An upsert older than the stored product's changes nothing, so updates that
   * arrive out of order (webhooks, a sync beside them) leave the newest in place.
   */
  sourceUpdatedAt?: (string & tags.MaxLength<40>) | number | null;
}

export interface WireCatalog {
  products: WireProduct[] & tags.MinItems<1> & tags.MaxItems<1000>;
}

export const MAX_PRODUCTS_PER_PUT = 1000;
export const MAX_CUSTOM_ATTRIBUTES = 32;
const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

const validateCatalog = typia.createValidate<WireCatalog>();

function amount(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'number' ? String(value) : value;
}

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, 200) || 'product';
}

function describe(expected: string, value: unknown): string {
  if (value === undefined) return 'is required';
  if (expected.includes('MaxItems<1000>')) return `holds at most ${MAX_PRODUCTS_PER_PUT} products`;
  if (expected.includes('MinItems<1>')) return 'must hold at least one product';
  if (expected.includes('Pattern<"^[0-9]')) return AMOUNT_DETAIL;
  return `must be ${expected.replace(/ & [A-Za-z]+<[^>]*>/g, '').replace(/"/g, "'")}`;
}

/** A source time as epoch ms; null when it is not one (a date-time with a zone, or non-negative finite ms). */
function parseSourceTime(raw: string | number): number | null {
  const ms = typeof raw === 'number' ? raw : ISO_8601_WITH_ZONE.test(raw) ? Date.parse(raw) : NaN;
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms) : null;
}

export type CatalogParse = { ok: true; products: Product[] } | { ok: false; errors: FieldError[] };

/** Validates a whole upsert (all-or-nothing) and normalizes each product. Never throws. */
export function parseCatalog(input: unknown, defaultPlatform: string, now: number): CatalogParse {
  const result = validateCatalog(input);
  if (!result.success) {
    return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path), detail: describe(e.expected, e.value) })) };
  }
  const errors: FieldError[] = [];
  const products: Product[] = [];
  result.data.products.forEach((wire, index) => {
    const id = parseId(wire.id, 'Product');
    if (id === undefined) errors.push({ pointer: `/products/${index}/id`, detail: 'must be a product id such as 123 or gid://shopify/Product/123' });
    for (const field of ['price', 'compareAtPrice'] as const) {
      const value = wire[field];
      if (typeof value === 'number' && !DECIMAL_AMOUNT.test(String(value))) errors.push({ pointer: `/products/${index}/${field}`, detail: AMOUNT_DETAIL });
    }
    const collections: string[] = [];
    (wire.collections ?? []).forEach((raw, c) => {
      const collection = parseId(raw, 'Collection');
      if (collection === undefined) errors.push({ pointer: `/products/${index}/collections/${c}`, detail: 'must be a collection id such as 42 or gid://shopify/Collection/42' });
      else if (!collections.includes(collection.id)) collections.push(collection.id);
    });
    const attributes = wire.attributes ?? undefined;
    if (attributes !== undefined) {
      const names = Object.keys(attributes);
      if (names.length > MAX_CUSTOM_ATTRIBUTES) errors.push({ pointer: `/products/${index}/attributes`, detail: `holds at most ${MAX_CUSTOM_ATTRIBUTES} attributes` });
      for (const name of names.slice(0, MAX_CUSTOM_ATTRIBUTES + 1)) {
        const pointer = `/products/${index}/attributes/${name.replace(/~/g, '~0').replace(/\//g, '~1').slice(0, 80)}`;
        if (!ATTRIBUTE_NAME.test(name)) errors.push({ pointer, detail: 'must be named by a letter, then at most 63 letters, digits or _' });
        else if (isReservedAttributeName(name)) errors.push({ pointer, detail: `'${name}' is a built-in attribute: choose another name` });
        else if (typeof attributes[name] === 'number' && !Number.isFinite(attributes[name])) errors.push({ pointer, detail: 'must be a finite number' });
      }
    }
    const sourceUpdatedAt = wire.sourceUpdatedAt === null || wire.sourceUpdatedAt === undefined ? undefined : parseSourceTime(wire.sourceUpdatedAt);
    if (sourceUpdatedAt === null) errors.push({ pointer: `/products/${index}/sourceUpdatedAt`, detail: 'must be an ISO 8601 date-time with a time zone or epoch milliseconds' });
    if (id === undefined) return;
    products.push({
      id: id.id,
      platform: id.platform ?? defaultPlatform,
      title: wire.title,
      handle: wire.handle ?? slugify(wire.title),
      image: wire.image ?? null,
      price: amount(wire.price),
      compareAtPrice: amount(wire.compareAtPrice),
      vendor: wire.vendor ?? null,
      productType: wire.productType ?? null,
      tags: [...new Set(wire.tags ?? [])],
      collections,
      available: wire.available ?? true,
      ...(wire.repurchasable ? { repurchasable: true } : {}),
      ...(attributes !== undefined && Object.keys(attributes).length > 0 ? { attributes: { ...attributes } } : {}),
      ...(typeof sourceUpdatedAt === 'number' ? { sourceUpdatedAt } : {}),
      updatedAt: now,
    });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, products };
}

/** The products of a PUT /api/products body (see parseCatalog); throws invalid_product with every field error. */
export function catalogProducts(input: unknown, defaultPlatform: string, now: number): Product[] {
  const parsed = parseCatalog(input, defaultPlatform, now);
  if (parsed.ok) return parsed.products;
  const first = parsed.errors[0]!;
  throw new AppError('invalid_product', `${first.pointer} ${first.detail}`, parsed.errors);
}
