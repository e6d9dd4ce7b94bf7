// JSON bodies of the hot paths, assembled from pre-serialized product fragments: a product is
// stringified once per version (it is immutable; an update makes a new object) and reused.
import { productGid } from '../api/product-id.js';
import type { CatalogProduct, ProductCard } from '../api/responses.js';
import type { Product } from '../engine/product.js';
import type { Recommendation } from '../engine/recommend.js';

const fragments = new WeakMap<Product, string>();

/** The spec's "recommended product" fields, less score and strategy. */
function cardFields(product: Product): ProductCard {
  return {
    id: productGid(product.platform, product.id),
    title: product.title,
    handle: product.handle,
    image: product.image,
    price: product.price,
    compareAtPrice: product.compareAtPrice,
    vendor: product.vendor,
  };
}

/** `{"id":…,"vendor":…,` — the product's fields, open for score and strategy. */
function fragment(product: Product): string {
  let json = fragments.get(product);
  if (json === undefined) {
    json = JSON.stringify(cardFields(product)).slice(0, -1) + ',';
    fragments.set(product, json);
  }
  return json;
}

/** Powers of ten up to 10¹¹: a score scaled by one to six integer digits (it is then ≥ 1e-6, shown without an exponent). */
const POW10 = Array.from({ length: 12 }, (_, k) => 10 ** k);

/** The value rounded to 6 significant digits through decimal text: what `score` writes, the slow way. */
function decimalRoundTrip(value: number): string {
  return String(Number(value.toPrecision(6)));
}

/**
 * Scores are rounded to 6 significant digits: enough to rank, short on the wire. The text is
 * decimalRoundTrip's (test/http/render.test.ts), written from the six digits directly: the round
 * trip cost ~1 µs a score, a large share of rendering an uncached answer. A value near a rounding
 * tie, or outside 1e-6 to 1e6, takes the round trip.
 */
export function score(value: number): string {
  if (value === 0) return '0';
  const magnitude = Math.abs(value);
  let decimals = 5 - Math.floor(Math.log10(magnitude));
  if (decimals < 0 || decimals >= POW10.length) return decimalRoundTrip(value);
  const scaled = magnitude * POW10[decimals]!; // within ~1e-10 of the exact product
  if (scaled < 1e5 || scaled >= 1e6 || Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) return decimalRoundTrip(value);
  let digits = Math.round(scaled);
  while (decimals > 0 && digits % 10 === 0) {
    digits /= 10;
    decimals--;
  }
  let text = String(digits);
  if (decimals >= text.length) text = '0.' + '0'.repeat(decimals - text.length) + text;
  else if (decimals > 0) text = text.slice(0, -decimals) + '.' + text.slice(-decimals);
  return value < 0 ? '-' + text : text;
}

/** The RecommendationResponse body, assembled as text (the hot path); tests check real answers against the type. */
export function recommendationJson(result: Recommendation): string {
  let body = '{"products":[';
  let fallback = false;
  for (let i = 0; i < result.items.length; i++) {
    const item = result.items[i]!;
    if (i > 0) body += ',';
    body += fragment(item.product) + '"score":' + score(item.score) + ',"strategy":"' + item.strategy + (item.ruleId === undefined ? '"}' : '","ruleId":"' + item.ruleId + '"}');
    if (item.strategy !== result.strategy) fallback = true;
  }
  return (
    body +
    `],"meta":{"strategy":"${result.strategy}","modelLevel":${result.modelLevel},"count":${result.items.length},"fallback":${fallback}` +
    (result.cart === undefined ? '}}' : `,"cart":{"products":${result.cart.products},"known":${result.cart.known}}}}`)
  );
}

/** A catalog product as GET /api/products/:id shows it (all stored fields, gid id). */
export function productJson(product: Product): string {
  const body: CatalogProduct = {
    ...cardFields(product),
    productType: product.productType,
    tags: product.tags,
    collections: product.collections,
    available: product.available,
    repurchasable: product.repurchasable === true,
    attributes: product.attributes ?? {},
    updatedAt: new Date(product.updatedAt).toISOString(),
  };
  return JSON.stringify(body);
}
