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

/** Scores are rounded to 6 significant digits: enough to rank, short on the wire. */
function score(value: number): string {
  return value === 0 ? '0' : String(Number(value.toPrecision(6)));
}

/** The RecommendationResponse body, assembled as text (the hot path); tests check real answers against the type. */
export function recommendationJson(result: Recommendation): string {
  let body = '{"products":[';
  let fallback = false;
  for (let i = 0; i < result.items.length; i++) {
    const item = result.items[i]!;
    if (i > 0) body += ',';
    body += fragment(item.product) + '"score":' + score(item.score) + ',"strategy":"' + item.strategy + '"}';
    if (item.strategy !== result.strategy) fallback = true;
  }
  return (
    body +
    `],"meta":{"strategy":"${result.strategy}","modelLevel":${result.modelLevel},"count":${result.items.length},"fallback":${fallback}}}`
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
    updatedAt: new Date(product.updatedAt).toISOString(),
  };
  return JSON.stringify(body);
}
