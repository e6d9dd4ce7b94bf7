// The tuner's validation split, as a live shop has it: the shop's latest purchases (the newest
// `recentShare` of them, by their estimated time) of products first bought then are held out for
// every other shopper who made one,
// and predicted from the rest of that shopper's history, the way the shop's next answers predict
// purchases that come after its data: what sells now (momentum) is then judged at about the time it
// is used. With time playing no part (the shop's recency off), whole orders are held out instead,
// spread over each history. Shoppers not sampled keep their whole history in the training rows.
// What the engine's counters learnt from the held-out purchases (an order each, their weight in
// recent sales) is returned per item, so momentum can be scored without them. Pure: works on the
// typed arrays fit-input.ts reads from the engine.
import type { Histories } from '../ease/solver.js';
import { firstAtLeast } from '../sorted-search.js';

/** What validation reads of each history entry, aligned with `histories.items`. */
export interface EntryFacts {
  /** The shopper's affinity to the item relative to their strongest (0, 1]; bought items no longer among the affinities: the weakest one's. */
  strengths: Float32Array;
  /** -1: not bought; else its place in the shopper's purchases, 0 the first bought. */
  purchaseOrder: Int32Array;
  /** Bought entries: the purchase's estimated weight in the item's recent sales now (2^(-age / popularity half-life)); 0 otherwise. */
  recency: Float32Array;
  /** 1: bought once and nothing else recorded of it, so its time (recency) is exact: the same recency, the same order. */
  once: Uint8Array;
}

/** Momentum's counts per fit item, as the engine holds them now (engine/momentum.ts). */
export interface ItemFacts {
  /** Recent sales, in long-run units (recent · h_long / h_recent). */
  recent: Float32Array;
  /** Long-run sales (decayed with the long half-life). */
  long: Float32Array;
  /** Sales ever. */
  ever: Float32Array;
  /** h_long / h_recent: what a held-out purchase's recent weight (entries.recency) counts in `recent`. */
  recentUnits: number;
}

/** Everything the tuner reads, beside the fit's input (histories with values 1). */
export interface TuningInput {
  entries: EntryFacts;
  items: ItemFacts;
}

export interface SplitOptions {
  /** Shoppers with fewer purchases in the fit than this are not held out. */
  minPurchases: number;
  /** newest: the newest share of all purchases in the fit (by recency) that sampled shoppers have held out; orders: the share of each one's orders. */
  recentShare: number;
  /**
   * newest: the shop's newest purchases are held out (time matters: what a live shop predicts);
   * orders: that share of each shopper's orders, whole, spread over their history (time plays no
   * part: for a shop whose recency is off). An order is the products bought once at one time
   * (EntryFacts.once); a product bought again stays in training, as it is in every split of whole
   * orders but the rare one that holds all its orders out. Holding out single purchases left the
   * rest of their order in the history, and the basket-mates found them: nDCG@10 0.32 on Online
   * Retail's orders split at random, against 0.12 on whole orders and 0.13 on the test period, and
   * the λ it chose (a quarter of the default's, closest to the raw co-occurrence) lost on the test.
   */
  held: 'newest' | 'orders';
  /** Validation shoppers at most: every k-th eligible one is taken (the work is linear in them). */
  maxShoppers: number;
  /**
   * Every `minStride`-th eligible shopper at most (2: half): the others keep their whole history in
   * training, so a pair most shoppers buy one after the other is still seen together (holding out
   * everyone's last purchase would take every such pair out of training).
   */
  minStride: number;
}

export const DEFAULT_SPLIT: Readonly<SplitOptions> = Object.freeze({ minPurchases: 2, recentShare: 0.1, held: 'newest', maxShoppers: 3000, minStride: 2 });

export interface ValidationSplit {
  /** Every shopper's training row (held-out entries removed), values 1: what EASE is fitted on. */
  train: Histories;
  /** Training strengths and whether bought, aligned with train.items. */
  strengths: Float32Array;
  bought: Uint8Array;
  /** The validation shoppers' rows in `train`, and their held-out items: shopper v holds heldItems[heldStarts[v] .. heldStarts[v + 1]). */
  rows: Int32Array;
  heldStarts: Int32Array;
  heldItems: Int32Array;
  /** Per item: held-out purchases of it, and their estimated weight in its recent sales. */
  heldOrders: Float32Array;
  heldRecent: Float32Array;
}

/** The split; shoppers are taken in row order, so the same input always gives the same split. */
export function validationSplit(n: number, histories: Histories, input: TuningInput, options: SplitOptions = DEFAULT_SPLIT): ValidationSplit {
  const { starts, items } = histories;
  const { strengths, purchaseOrder, recency, once } = input.entries;
  const shoppers = starts.length - 1;
  const threshold = newestRecency(purchaseOrder, recency, options.recentShare);
  // orders: every period-th order of each shopper (oldest first), from an offset that turns with the shopper
  const period = Math.max(1, Math.round(1 / options.recentShare));
  const orders = new ShopperOrders();
  let shopper = 0;
  /**
   * newest: only products the shopper first bought among the newest purchases, as the shop's next
   * answers (which never recommend a product back) are judged: a product bought before and again
   * now reads as new by its time, but something the shopper first bought later reads as old.
   */
  let firstBoughtAfter = -1;
  const newestFirstBought = (s: number) => {
    let last = -1;
    for (let k = starts[s]!; k < starts[s + 1]!; k++) if (purchaseOrder[k]! >= 0 && recency[k]! < threshold) last = Math.max(last, purchaseOrder[k]!);
    return last;
  };
  const held =
    options.held === 'newest'
      ? (k: number) => purchaseOrder[k]! > firstBoughtAfter && recency[k]! >= threshold
      : (k: number) => once[k] === 1 && (orders.indexOf(recency[k]!) + shopper) % period === 0;
  const startShopper = (s: number) => {
    shopper = s;
    if (options.held === 'newest') firstBoughtAfter = newestFirstBought(s);
    else orders.read(starts[s]!, starts[s + 1]!, once, recency);
  };
  // Eligible: enough purchases, one of them among the newest, and something left to predict from.
  const heldOf = new Int32Array(shoppers);
  let eligible = 0;
  for (let s = 0; s < shoppers; s++) {
    startShopper(s);
    let bought = 0;
    let newest = 0;
    for (let k = starts[s]!; k < starts[s + 1]!; k++) {
      if (purchaseOrder[k]! >= 0) bought++;
      if (held(k)) newest++;
    }
    if (bought >= options.minPurchases && newest > 0 && starts[s + 1]! - starts[s]! > newest) {
      heldOf[s] = newest;
      eligible++;
    }
  }
  const stride = Math.max(options.minStride, Math.ceil(eligible / options.maxShoppers));
  const trainStarts = new Int32Array(shoppers + 1);
  const trainItems: number[] = [];
  const trainStrengths: number[] = [];
  const trainBought: number[] = [];
  const rows: number[] = [];
  const heldStarts: number[] = [0];
  const heldItems: number[] = [];
  const heldOrders = new Float32Array(n);
  const heldRecent = new Float32Array(n);
  let seen = 0;
  for (let s = 0; s < shoppers; s++) {
    startShopper(s);
    const sampled = heldOf[s]! > 0 && seen++ % stride === 0 && rows.length < options.maxShoppers;
    if (sampled) rows.push(s);
    for (let k = starts[s]!; k < starts[s + 1]!; k++) {
      if (sampled && held(k)) {
        heldItems.push(items[k]!);
        heldOrders[items[k]!]! += 1;
        heldRecent[items[k]!]! += recency[k]!;
      } else {
        trainItems.push(items[k]!);
        trainStrengths.push(strengths[k]!);
        trainBought.push(purchaseOrder[k]! >= 0 ? 1 : 0);
      }
    }
    if (sampled) heldStarts.push(heldItems.length);
    trainStarts[s + 1] = trainItems.length;
  }
  const train: Histories = { starts: trainStarts, items: Int32Array.from(trainItems), values: new Float32Array(trainItems.length).fill(1) };
  return {
    train,
    strengths: Float32Array.from(trainStrengths),
    bought: Uint8Array.from(trainBought),
    rows: Int32Array.from(rows),
    heldStarts: Int32Array.from(heldStarts),
    heldItems: Int32Array.from(heldItems),
    heldOrders,
    heldRecent,
  };
}

/** One shopper's orders: the distinct times (recency) of their once-bought entries, oldest first. */
class ShopperOrders {
  #times: number[] = [];

  read(from: number, to: number, once: Uint8Array, recency: Float32Array): void {
    const times = this.#times;
    times.length = 0;
    for (let k = from; k < to; k++) if (once[k] === 1) times.push(recency[k]!);
    times.sort((a, b) => a - b);
    let distinct = 0;
    for (let i = 0; i < times.length; i++) if (i === 0 || times[i] !== times[distinct - 1]) times[distinct++] = times[i]!;
    times.length = distinct;
  }

  /** The order of a once-bought entry of the shopper read last. */
  indexOf(recency: number): number {
    return firstAtLeast(this.#times, recency);
  }
}

/**
 * The recency at or above which the newest `share` of the purchases lie (at least one purchase:
 * the newest); Infinity when there is none. O(p log p) over the p purchases.
 */
export function newestRecency(purchaseOrder: Int32Array, recency: Float32Array, share: number): number {
  const values: number[] = [];
  for (let k = 0; k < purchaseOrder.length; k++) if (purchaseOrder[k]! >= 0 && recency[k]! > 0) values.push(recency[k]!);
  if (values.length === 0) return Infinity;
  values.sort((a, b) => b - a);
  return values[Math.min(values.length - 1, Math.max(0, Math.ceil(values.length * share) - 1))]!;
}
