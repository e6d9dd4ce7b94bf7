// What an EASE fit reads from a shop's engine: its most popular products (up to a cap) and every
// shopper's history over them (affinities and purchases, as plain 0/1 rows), in typed arrays that
// can be transferred to a worker. Read on the event loop, so it is read in steps: the ranking in
// one (a bounded heap over the products with popularity), then SHOPPERS_PER_STEP shoppers per
// step, each a few ms at 100k products / 200k shoppers (read in one go it held the event loop for
// ~400 ms there). Events applied between steps are in the fit or not, shopper by shopper (each
// history is read whole in one step); the fit is a periodic model, so either is right.
// Work and memory: one pass over the shoppers' entries (≤ (maxCustomers + maxSessions) × (historyPerShopper +
// purchasesPerShopper)), typed scratch the size of the catalog, output 8 bytes per entry kept.
import { LONG_HALF_LIFE_MS } from '../momentum.js';
import type { ShopEngine } from '../shop-engine.js';
import { TopK } from '../top-k.js';
import type { TuningInput } from '../tuning/validation-split.js';
import type { Histories } from './solver.js';

export interface FitInput {
  /** Engine dense id of each EASE index. */
  items: Int32Array;
  histories: Histories;
  /** What the shop's tuner reads beside the histories (read when the fit is asked for at a time `now`). */
  tuning?: TuningInput;
}

/** Shoppers read per step of the event loop. */
export const SHOPPERS_PER_STEP = 10_000;

/** The fit's input, read at once (tests, benches); undefined when fewer than two products have any popularity. */
export function fitInput(engine: ShopEngine, maxItems: number, now?: number): FitInput | undefined {
  const steps = fitInputSteps(engine, maxItems, SHOPPERS_PER_STEP, now);
  for (let step = steps.next(); ; step = steps.next()) if (step.done === true) return step.value;
}

/** The fit's input, read a step per turn (`pause` awaited between steps). */
export async function fitInputInTurns(engine: ShopEngine, maxItems: number, pause: () => Promise<void>, shoppersPerStep = SHOPPERS_PER_STEP, now?: number): Promise<FitInput | undefined> {
  const steps = fitInputSteps(engine, maxItems, shoppersPerStep, now);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done === true) return step.value;
    await pause();
  }
}

/**
 * Yields between steps; returns the input. With `now`, also the tuner's facts: per entry the
 * shopper's relative affinity (decayed, or with the shop's recency off the undecayed totals, as
 * personalized weighs the history), its place among their purchases and (bought ones) the
 * purchase's estimated weight in recent sales: its time read back from the affinity's
 * forward-decayed value (landmark + half-life × log2(value / purchase weight): exact for an item
 * only bought once, later than the truth when it was also viewed, so never too little is taken
 * out), and whether that time is exact (the entry's one event was the purchase); per item
 * momentum's two counts.
 */
function* fitInputSteps(engine: ShopEngine, maxItems: number, shoppersPerStep = SHOPPERS_PER_STEP, now?: number): Generator<void, FitInput | undefined> {
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

  const tuned = now !== undefined;
  const starts: number[] = [0];
  const entries: number[] = [];
  const strengths: number[] = [];
  const purchaseOrder: number[] = [];
  const recency: number[] = [];
  const once: number[] = [];
  /** Entry index of item e in the current shopper's row (valid where seenBy[e] === slot + 1). */
  const entryOf = new Int32Array(tuned ? n : 0);
  /** seenBy[e] = 1 + the slot whose history last took item e: each item once per shopper, no clearing. */
  const seenBy = new Int32Array(n);
  let slot = 0;
  let taken = 0;
  let strength = 1;
  const keep = (dense: number) => {
    const e = dense < indexOf.length ? indexOf[dense]! : -1;
    if (e >= 0 && seenBy[e] !== slot + 1) {
      seenBy[e] = slot + 1;
      if (tuned) {
        entryOf[e] = entries.length;
        strengths.push(strength);
        purchaseOrder.push(-1);
        recency.push(0);
        once.push(0);
      }
      entries.push(e);
      taken++;
    }
  };
  const affinities = engine.affinities;
  const purchaseWeight = engine.config.eventWeights.purchase || 1;
  const popularityRate = 1 / engine.config.popularityHalfLifeMs;
  let bought = 0;
  /** The bought item's place among the purchases and its recency (tuning only). */
  const markBought = (dense: number) => {
    const e = dense < indexOf.length ? indexOf[dense]! : -1;
    if (e < 0 || seenBy[e] !== slot + 1) return void bought++;
    const k = entryOf[e]!;
    purchaseOrder[k] = bought++;
    const at = affinityAt(dense);
    if (at < 0) return;
    const value = affinities.values[at]!;
    if (value > 0) {
      const time = Math.min(now!, affinities.landmark(slot) + affinities.halfLifeMs * Math.log2(value / purchaseWeight));
      recency[k] = 2 ** ((time - now!) * popularityRate);
      // (recencies that round to 0 in float32, years old, tell orders apart no more)
      once[k] = affinities.totals[at] === Math.fround(purchaseWeight) && Math.fround(recency[k]!) > 0 ? 1 : 0;
    }
  };
  /** Where the shopper's affinity to `dense` is held, -1: none. */
  let affinityAt = (_dense: number) => -1;
  for (; slot < engine.shoppers.size; slot++) {
    if (slot > 0 && slot % shoppersPerStep === 0) yield;
    taken = 0;
    const start = affinities.start(slot);
    const size = affinities.size(slot);
    const history = affinities.items; // read after each pause: the table may have grown meanwhile
    const values = engine.historyWeights(); // what personalized weighs the history by
    let strongest = 0;
    let weakest = Infinity;
    for (let k = 0; k < size; k++) {
      strongest = Math.max(strongest, values[start + k]!);
      weakest = Math.min(weakest, values[start + k]!);
    }
    for (let k = 0; k < size; k++) {
      strength = values[start + k]! / strongest;
      keep(history[start + k]!);
    }
    strength = size === 0 ? 1 : weakest / strongest; // bought, no longer among the affinities: as personalized weighs them
    affinities.purchasesOf(slot, keep);
    if (tuned) {
      bought = 0;
      affinityAt = (dense) => {
        for (let k = 0; k < size; k++) if (history[start + k] === dense) return start + k;
        return -1;
      };
      affinities.purchasesOf(slot, markBought);
    }
    // A shopper with one item adds only to its diagonal: kept, it is part of G all the same.
    if (taken > 0) starts.push(entries.length);
  }
  const histories = { starts: Int32Array.from(starts), items: Int32Array.from(entries), values: new Float32Array(entries.length).fill(1) };
  if (!tuned) return { items, histories };
  const sales = engine.sales;
  const scales = sales.scalesAt(now);
  const recent = new Float32Array(n);
  const long = new Float32Array(n);
  const ever = new Float32Array(n);
  for (let e = 0; e < n; e++) {
    recent[e] = sales.recent.raw(items[e]!) * scales.recent;
    long[e] = sales.long.raw(items[e]!) * scales.long;
    ever[e] = sales.ever.raw(items[e]!);
  }
  return {
    items,
    histories,
    tuning: {
      entries: { strengths: Float32Array.from(strengths), purchaseOrder: Int32Array.from(purchaseOrder), recency: Float32Array.from(recency), once: Uint8Array.from(once) },
      items: { recent, long, ever, recentUnits: LONG_HALF_LIFE_MS / sales.recent.halfLifeMs },
    },
  };
}
