// An engine holding a split's training period, as the service would after the merchant replayed it:
// every order line a purchase by its customer, in its invoice's session, with its order id.
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from '../../src/config.js';
import type { Product } from '../../src/engine/product.js';
import { ShopEngine } from '../../src/engine/shop-engine.js';
import type { OrderLine } from './online-retail.js';

/** `products` first (the catalog), then `lines` in order. PAIRWISE_EVAL_CONFIG='{"maxNeighbors":400}' tries other engine settings. */
export function replayEngine(products: Iterable<Product>, lines: readonly OrderLine[], settings: Partial<EngineConfig> = {}): ShopEngine {
  const engine = new ShopEngine({ ...DEFAULT_ENGINE_CONFIG, ...settings, ...(JSON.parse(process.env.PAIRWISE_EVAL_CONFIG ?? '{}') as object) });
  for (const product of products) engine.upsertProduct(product);
  for (const line of lines) {
    engine.apply({ type: 'purchase', productId: line.stockCode, sessionId: line.invoice, customerId: line.customerId, metadata: { orderId: line.invoice }, timestamp: line.time });
  }
  return engine;
}

/** A catalog product with only what the dataset has (its title and price) beside its id. */
export function retailProduct(code: string, title: string, price: number, more: Partial<Product> = {}): Product {
  return {
    id: code,
    platform: 'shopify',
    title,
    handle: code.toLowerCase(),
    image: null,
    price: price.toFixed(2),
    compareAtPrice: null,
    vendor: null,
    productType: null,
    tags: [],
    collections: [],
    available: true,
    updatedAt: 0,
    ...more,
  };
}
