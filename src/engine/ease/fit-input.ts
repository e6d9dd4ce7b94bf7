// What an EASE fit reads from a shop's engine: its most popular products (up to a cap) and every
// shopper's history over them (affinities and purchases, as plain 0/1 rows), in typed arrays that
// can be transferred to a worker. A copy taken at one instant: events after it wait for the next fit.
// Work and memory: one pass over the shoppers' entries (≤ maxShoppers × (historyPerShopper +
// purchasesPerShopper)), output 8 bytes per history entry kept.
import type { ShopEngine } from '../shop-engine.js';
import type { Histories } from './solver.js';

export interface FitInput {
  /** Engine dense id of each EASE index. */
  items: Int32Array;
  histories: Histories;
}

/** The fit's input, or undefined when fewer than two products have any popularity. */
export function fitInput(engine: ShopEngine, maxItems: number): FitInput | undefined {
  const popularity = engine.popularity;
  const ranked = [...popularity.positive()].filter((id) => engine.catalog.product(id) !== undefined);
  ranked.sort((a, b) => popularity.raw(b) - popularity.raw(a) || engine.compareIds(a, b));
  if (ranked.length < 2) return undefined;
  const items = Int32Array.from(ranked.slice(0, maxItems));
  const indexOf = new Map<number, number>();
  items.forEach((dense, e) => indexOf.set(dense, e));

  const starts: number[] = [0];
  const entries: number[] = [];
  const seen = new Set<number>();
  const keep = (dense: number) => {
    const e = indexOf.get(dense);
    if (e !== undefined && !seen.has(e)) {
      seen.add(e);
      entries.push(e);
    }
  };
  const affinities = engine.affinities;
  for (let slot = 0; slot < engine.shoppers.size; slot++) {
    seen.clear();
    const start = affinities.start(slot);
    for (let k = 0; k < affinities.size(slot); k++) keep(affinities.items[start + k]!);
    affinities.purchasesOf(slot, keep);
    // A shopper with one item adds only to its diagonal: kept, it is part of G all the same.
    if (seen.size > 0) starts.push(entries.length);
  }
  return { items, histories: { starts: Int32Array.from(starts), items: Int32Array.from(entries), values: new Float32Array(entries.length).fill(1) } };
}
