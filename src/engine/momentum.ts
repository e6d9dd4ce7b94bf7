// An item's momentum: how fast it sells now against how much it sold over all time, the prior
// personalized multiplies its candidates by. Recent popularity is the engine's decayed weighted
// event count (popularityHalfLifeMs, 14 days), in purchases (÷ the purchase weight) plus one; the
// long run is the number of orders the item was in (every one, undecayed). New arrivals and items
// in season rise, last year's best-sellers that stopped selling sink: shoppers' next purchases
// follow what the shop sells now (bench:quality: see docs/models.md).
// Cost: two array reads and one power per call.
import type { ShopEngine } from './shop-engine.js';

/** ((recent purchases + 1) / orders ever)^exponent; 1 when the exponent is 0. `scale` is engine.popularity.scaleAt(now). */
export function momentum(engine: ShopEngine, id: number, scale: number, exponent: number): number {
  if (exponent === 0) return 1;
  const recent = (engine.popularity.raw(id) * scale) / (engine.config.eventWeights.purchase || 1);
  return ((recent + 1) / Math.max(1, engine.baskets.groupsOf(id))) ** exponent;
}
