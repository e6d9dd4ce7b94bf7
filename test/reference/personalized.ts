// Reference for the real-time part of engine/strategies/personalized.ts (no EASE fit installed),
// in the plainest form: the shopper's strongest affinities, every neighbour of every one of their
// rows summed into a Map in the same order (seed by seed, the shopper row before the basket row),
// then every candidate the catalog offers at its score × momentum, sorted, the first `limit`
// kept. No score board, no heap, no bound skipping any candidate: what the strategy's shortcuts
// must give back exactly.
import type { CoOccurrence } from '../../src/engine/co-occurrence.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { BASKET_WEIGHT, MAX_SEEDS } from '../../src/engine/strategies/personalized.js';

export interface ReferencePick {
  id: number;
  score: number;
}

function addRow(scores: Map<number, number>, similarity: CoOccurrence, item: number, weight: number, scale: number, undecayed: boolean): void {
  const pairs = similarity.pairs;
  const groups = similarity.groupCounts;
  const first = undecayed ? pairs.totalStart(item) : pairs.weightStart(item);
  for (let k = 0; k < pairs.size(item); k++) {
    const j = pairs.ids[pairs.start(item) + k]!;
    const together = pairs.weights[first + k]! * scale;
    scores.set(j, (scores.get(j) ?? 0) + (weight * together) / (groups[item]! + groups[j]! - together));
  }
}

/** The best `limit` candidates for the shopper in `slot` at `now`, best first (ties by the engine's id order), nothing blocked. */
export function referencePersonalized(engine: ShopEngine, slot: number, now: number, limit: number): ReferencePick[] {
  const affinities = engine.affinities;
  const values = engine.historyWeights();
  const history = Array.from({ length: affinities.size(slot) }, (_, k) => ({ item: affinities.items[affinities.start(slot) + k]!, value: values[affinities.start(slot) + k]! }));
  history.sort((a, b) => b.value - a.value || engine.compareIds(a.item, b.item));
  const seeds = history.slice(0, MAX_SEEDS);
  if (seeds.length === 0) return [];
  const strongest = seeds[0]!.value;
  const basketScale = engine.timePriors ? engine.baskets.scaleAt(now) : 1;
  const scores = new Map<number, number>();
  for (const { item, value } of seeds) {
    const weight = value / strongest;
    addRow(scores, engine.shopperItems, item, weight, 1, false);
    addRow(scores, engine.baskets, item, BASKET_WEIGHT * weight, basketScale, !engine.timePriors);
  }
  const scales = engine.sales.scalesAt(now);
  const exponent = engine.ease.blendFor(engine.timePriors).momentumExponent;
  const picks = [...scores]
    .filter(([id]) => engine.catalog.isAvailable(id))
    .map(([id, score]) => ({ id, score: score * engine.sales.momentum(id, scales, exponent) }));
  picks.sort((a, b) => b.score - a.score || engine.compareIds(a.id, b.id));
  return picks.slice(0, limit);
}
