// An item's momentum: how fast it sells now against how much it sold over all time, the prior
// personalized multiplies its candidates by. Recent popularity is the engine's decayed weighted
// event count (popularityHalfLifeMs, 14 days), in purchases (÷ the purchase weight) plus one; the
// long run is the number of orders the item was in (every one, undecayed). New arrivals and items
// in season rise, last year's best-sellers that stopped selling sink: shoppers' next purchases
// follow what the shop sells now (bench:quality: see docs/models.md).
// Cost: two array reads per call, and a power unless the exponent is 0 or 1 (the default is 1).
import type { ShopEngine } from './shop-engine.js';

/** What momentum() multiplies an item's raw popularity by at `now` to count its recent purchases (once per answer). */
export function recentPurchaseScale(engine: ShopEngine, now: number): number {
  return engine.popularity.scaleAt(now) / (engine.config.eventWeights.purchase || 1);
}

/** ((recent purchases + 1) / orders ever)^exponent; 1 when the exponent is 0. `recentScale` is recentPurchaseScale(engine, now). */
export function momentum(engine: ShopEngine, id: number, recentScale: number, exponent: number): number {
  if (exponent === 0) return 1;
  const ratio = (engine.popularity.raw(id) * recentScale + 1) / Math.max(1, engine.baskets.groupsOf(id));
  return exponent === 1 ? ratio : ratio ** exponent;
}
