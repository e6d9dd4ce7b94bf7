// Builders shared by the engine tests: products, events and a fresh ShopEngine, all with fixed times.
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from '../../src/config.js';
import { ChangeClock } from '../../src/engine/change-stamps.js';
import { CoOccurrence } from '../../src/engine/co-occurrence.js';
import type { EngineEvent, EventType } from '../../src/engine/event.js';
import { GroupTable } from '../../src/engine/group-table.js';
import { LruSlots } from '../../src/engine/lru-slots.js';
import type { Product } from '../../src/engine/product.js';
import { recommend, type Recommendation, type RecommendationRequest } from '../../src/engine/recommend.js';
import { ShopEngine } from '../../src/engine/shop-engine.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** A fixed "now" (2024-01-01T00:00:00Z): the engine never reads a clock, neither do its tests. */
export const T0 = Date.UTC(2024, 0, 1);

export function product(id: string, overrides: Partial<Product> = {}): Product {
  return {
    id,
    platform: 'shopify',
    title: `Product ${id}`,
    handle: `product-${id}`,
    image: null,
    price: '10.00',
    compareAtPrice: null,
    vendor: null,
    productType: null,
    tags: [],
    collections: [],
    available: true,
    updatedAt: T0,
    ...overrides,
  };
}

/** Anonymous events each come from a session of their own (one session's counts are capped: engine/shopper-tally.ts). */
let anonymous = 0;

export function event(type: EventType, productId: string, timestamp: number, shopper: { sessionId?: string; customerId?: string } = {}): EngineEvent {
  return { type, productId, sessionId: shopper.sessionId ?? `s-anon-${anonymous++}`, timestamp, ...(shopper.customerId ? { customerId: shopper.customerId } : {}) };
}

/** An engine holding `products` (ids, or full products) in the given order. */
export function engineWith(products: readonly (string | Product)[], config: Partial<EngineConfig> = {}): ShopEngine {
  const engine = new ShopEngine({ ...DEFAULT_ENGINE_CONFIG, ...config });
  for (const p of products) engine.upsertProduct(typeof p === 'string' ? product(p) : p);
  return engine;
}

export function ask(engine: ShopEngine, request: Partial<RecommendationRequest>, now: number): Recommendation {
  return recommend(engine, { limit: 8, exclude: [], ...request }, now);
}

export function idsOf(recommendation: Recommendation): string[] {
  return recommendation.items.map((item) => item.product.id);
}

export function strategiesOf(recommendation: Recommendation): string[] {
  return recommendation.items.map((item) => item.strategy);
}

/** A co-occurrence model over its own group slots, fed by group key as the engine does (touch, then add). */
export function keyedModel(kept: number, maxGroups: number, maxGroupItems: number, sliding = false, halfLifeMs?: number) {
  const slots = new LruSlots(maxGroups);
  const model = new CoOccurrence(new ChangeClock(), new GroupTable(slots, maxGroupItems), kept, sliding, halfLifeMs);
  return { model, add: (key: string, item: number, t: number, weight = 1) => model.add(slots.touch(key), item, t, weight) };
}
