// What an EASE fit reads from a shop's engine: its most popular products (up to a cap) and every
// shopper's history over them (affinities and purchases, as plain 0/1 rows), in typed arrays that
// can be transferred to a worker. Read on the event loop, so it is read in steps: the ranking in
// one (a bounded heap over the products with popularity), then SHOPPERS_PER_STEP shoppers per
// step, each a few ms at 100k products / 200k shoppers (read in one go it held the event loop for
// ~400 ms there). Events applied between steps are in the fit or not, shopper by shopper (each
// history is read whole in one step); the fit is a periodic model, so either is right.
// Work and memory: one pass over the shoppers' entries (≤ (maxCustomers + maxSessions) × (historyPerShopper +
// purchasesPerShopper)), typed scratch the size of the catalog, output 8 bytes per entry kept.
import type { ShopEngine } from '../shop-engine.js';
import { TopK } from '../top-k.js';
import type { Histories } from './solver.js';

export interface FitInput {
  /** Engine dense id of each EASE index. */
  items: Int32Array;
  histories: Histories;
}

/** Shoppers read per step of the event loop. */
export const SHOPPERS_PER_STEP = 10_000;

/** The fit's input, read at once (tests, benches); undefined when fewer than two products have any popularity. */
export function fitInput(engine: ShopEngine, maxItems: number): FitInput | undefined {
  const steps = fitInputSteps(engine, maxItems);
  for (let step = steps.next(); ; step = steps.next()) if (step.done === true) return step.value;
}

/** The fit's input, read a step per turn (`pause` awaited between steps). */
export async function fitInputInTurns(engine: ShopEngine, maxItems: number, pause: () => Promise<void>, shoppersPerStep = SHOPPERS_PER_STEP): Promise<FitInput | undefined> {
  const steps = fitInputSteps(engine, maxItems, shoppersPerStep);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    await pause();
  }
}

/** Yields between steps; returns the input. */
function* fitInputSteps(engine: ShopEngine, maxItems: number, shoppersPerStep = SHOPPERS_PER_STEP): Generator<void, FitInput | undefined> {
  const popularity = engine.popularity;
  // The maxItems most popular catalog products, most popular first, ties in product id order.
  const top = new TopK(engine.compareIds);
  top.reset(maxItems);
  for (const id of popularity.positive()) if (engine.catalog.product(id) !== undefined) top.offer(id, popularity.raw(id));
  const n = top.sort();
  if (n < 2) return undefined;
  const items = new Int32Array(n);
  const indexOf = new Int32Array(engine.catalog.internedIds().length).fill(-1);
  for (let e = 0; e < n; e++) indexOf[(items[e] = top.idAt(e))] = e;
  yield;

  const starts: number[] = [0];
  const entries: number[] = [];
  /** seenBy[e] = 1 + the slot whose history last took item e: each item once per shopper, no clearing. */
  const seenBy = new Int32Array(n);
  let slot = 0;
  let taken = 0;
  const keep = (dense: number) => {
    const e = dense < indexOf.length ? indexOf[dense]! : -1;
    if (e >= 0 && seenBy[e] !== slot + 1) {
      seenBy[e] = slot + 1;
      entries.push(e);
      taken++;
    }
  };
  const affinities = engine.affinities;
  for (; slot < engine.shoppers.size; slot++) {
    if (slot > 0 && slot % shoppersPerStep === 0) yield;
    taken = 0;
    const start = affinities.start(slot);
    const history = affinities.items; // read after each pause: the table may have grown meanwhile
    for (let k = 0; k < affinities.size(slot); k++) keep(history[start + k]!);
    affinities.purchasesOf(slot, keep);
    // A shopper with one item adds only to its diagonal: kept, it is part of G all the same.
    if (taken > 0) starts.push(entries.length);
  }
  return { items, histories: { starts: Int32Array.from(starts), items: Int32Array.from(entries), values: new Float32Array(entries.length).fill(1) } };
}
