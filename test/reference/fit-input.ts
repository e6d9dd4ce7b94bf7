// Reference for engine/ease/fit-input.ts: the fit's input read the plain way (a full sort of the
// popular products, a Map from dense id to index, a Set per shopper).
import type { ShopEngine } from '../../src/engine/shop-engine.js';

export function referenceFitInput(engine: ShopEngine, maxItems: number): { items: number[]; histories: number[][] } | undefined {
  const popularity = engine.popularity;
  const ranked = [...popularity.positive()].filter((id) => engine.catalog.product(id) !== undefined);
  ranked.sort((a, b) => popularity.raw(b) - popularity.raw(a) || engine.compareIds(a, b));
  if (ranked.length < 2) return undefined;
  const items = ranked.slice(0, maxItems);
  const indexOf = new Map(items.map((dense, e) => [dense, e]));
  const histories: number[][] = [];
  for (let slot = 0; slot < engine.shoppers.size; slot++) {
    const seen = new Set<number>();
    const keep = (dense: number) => {
      const e = indexOf.get(dense);
      if (e !== undefined) seen.add(e);
    };
    const start = engine.affinities.start(slot);
    for (let k = 0; k < engine.affinities.size(slot); k++) keep(engine.affinities.items[start + k]!);
    engine.affinities.purchasesOf(slot, keep);
    if (seen.size > 0) histories.push([...seen]);
  }
  return { items, histories };
}
