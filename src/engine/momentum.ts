// An item's momentum: how fast it sells now against how fast it sold over the long run, the prior
// personalized multiplies its candidates by. Sales only: a purchase counts 1, an add_to_cart
// CART_SALE (views and clicks never), each as far as the shopper's tally lets it count
// (engine/shopper-tally.ts). Three counters per product, each forward-decayed (DecayedScores):
// recent sales (popularityHalfLifeMs, 14 days), long-run sales (LONG_HALF_LIFE_MS, a year) and
// sales ever. The lift is the ratio of the two rates, each smoothed by PRIOR_SALES per long
// half-life:
//   lift = (recent · h_long / h_recent + PRIOR_SALES) / (long + PRIOR_SALES)
// so a product selling as steadily now as over the year has a lift of about 1 however old its
// history (a steady rate fills the short counter first: at most a few % below 1 just before its
// next sale), one selling faster now rises, one that stopped sinks. momentum = lift^exponent,
// clipped to [MIN_MOMENTUM, MAX_MOMENTUM] and to at most (sales ever) / SALES_PER_UNIT: what one
// or two sales say is mostly chance, so a product sold once stays at ½ or below and a steady
// best-seller (lift about 1, two sales or more) is never pushed below it by momentum alone.
// Cost: three array reads and a power per candidate (a square root at the default 0.5; none at 0 or 1).
import { DecayedScores, type DecayedScoresSnapshot } from './decayed-scores.js';
import { grownTo } from './typed-arrays.js';

const DAY_MS = 86_400_000;
/** Half-life of the long-run sales rate momentum measures the recent one against. */
export const LONG_HALF_LIFE_MS = 365 * DAY_MS;
/** Sales per long half-life both rates start from: a product with no sales has a lift of 1. */
export const PRIOR_SALES = 1;
/** What an add_to_cart counts as, next to 1 for a purchase: most carts are abandoned. */
export const CART_SALE = 0.25;
/** Momentum never goes below this (a product that stopped selling) nor above MAX_MOMENTUM. */
export const MIN_MOMENTUM = 1 / 16;
export const MAX_MOMENTUM = 16;
/** Sales ever per unit of momentum an item may reach: one sale allows ½, 32 sales the maximum. */
export const SALES_PER_UNIT = 2;

/**
 * Momentum from a product's sales at one moment: `recent` in long-run units (recent sales ·
 * h_long / h_recent), `long` the long-run sales, `ever` all of them; the rule the header states,
 * for the engine and for the shop's tuning (which takes its held-out sales out first).
 */
export function momentumOf(recent: number, long: number, ever: number, exponent: number): number {
  if (exponent === 0) return 1;
  const lift = (recent + PRIOR_SALES) / (long + PRIOR_SALES);
  // The default exponent 0.5 as a square root: about half the time of a power whose exponent is a variable, once per candidate.
  const raised = exponent === 1 ? lift : exponent === 0.5 ? Math.sqrt(lift) : lift ** exponent;
  return Math.min(momentumCeiling(ever), Math.max(MIN_MOMENTUM, raised));
}

/** The most momentum `ever` sales allow (≥ MIN_MOMENTUM, so momentumOf never exceeds it). */
function momentumCeiling(ever: number): number {
  return Math.min(MAX_MOMENTUM, Math.max(MIN_MOMENTUM, ever / SALES_PER_UNIT));
}

/** Ceiling levels per doubling: a level's bound is at most 2^(1/16) ≈ 4.4 % above the ceiling it stands for. */
const LEVELS_PER_DOUBLING = 16;
/** The level of MIN_MOMENTUM (2^-4): level 0; MAX_MOMENTUM (2^4) is level 128. */
const LEVEL_OF_ONE = 4 * LEVELS_PER_DOUBLING;
/** The bound each ceiling level stands for: 2^((level − 64) / 16), from MIN_MOMENTUM to MAX_MOMENTUM. */
const CEILING_BOUNDS = Float64Array.from({ length: 2 * LEVEL_OF_ONE + 1 }, (_, level) => 2 ** ((level - LEVEL_OF_ONE) / LEVELS_PER_DOUBLING));

/** The lowest level whose bound is at least `ceiling` (MIN_MOMENTUM … MAX_MOMENTUM). */
function ceilingLevel(ceiling: number): number {
  let level = Math.max(0, Math.ceil(LEVELS_PER_DOUBLING * Math.log2(ceiling)) + LEVEL_OF_ONE);
  // log2 may round either way: the bound must never fall below the ceiling.
  while (CEILING_BOUNDS[level]! < ceiling) level++;
  while (level > 0 && CEILING_BOUNDS[level - 1]! >= ceiling) level--;
  return level;
}

export interface SalesSnapshot {
  recent: DecayedScoresSnapshot;
  long: DecayedScoresSnapshot;
  ever: DecayedScoresSnapshot;
}

/** The scales of one answer (SalesMomentum.scalesAt): valid for that `now` only. */
export interface MomentumScales {
  /** recent raw → recent sales · h_long / h_recent (the recent rate in long-run units). */
  recent: number;
  /** long raw → long-run sales at now. */
  long: number;
}

export class SalesMomentum {
  readonly recent: DecayedScores;
  readonly long = new DecayedScores(LONG_HALF_LIFE_MS);
  /** Never decays: a half-life of Infinity makes every forward-decay exponent 0. */
  readonly ever = new DecayedScores(Infinity);
  /**
   * Per product, ceilingLevel of its ceiling: one byte where ever's counter is eight. Personalized
   * bounds ~100 candidates an answer by it; read from a 100 KB array rather than 800 KB, those
   * reads mostly find it in the CPU's cache instead of main memory.
   */
  #ceilingLevels = new Uint8Array(1024);

  constructor(recentHalfLifeMs: number) {
    this.recent = new DecayedScores(recentHalfLifeMs);
  }

  /** Counts `sales` (1 a purchase, CART_SALE a cart, less when capped) of `id` at event time t. */
  record(id: number, sales: number, t: number): void {
    if (sales <= 0) return;
    this.recent.add(id, sales, t);
    this.addLongRun(id, sales, t);
  }

  /** Counts `sales` in the long-run and ever counters alone (sales restored from an older snapshot). */
  addLongRun(id: number, sales: number, t: number): void {
    this.long.add(id, sales, t);
    this.ever.add(id, sales, t);
    this.#level(id);
  }

  scalesAt(now: number): MomentumScales {
    return { recent: (this.recent.scaleAt(now) * LONG_HALF_LIFE_MS) / this.recent.halfLifeMs, long: this.long.scaleAt(now) };
  }

  /**
   * At least the most momentum the product can have at any exponent but 0 (where it is 1): the
   * ceiling its sales ever set, rounded up to its level (≤ 4.4 % above), read from one byte
   * where momentum() reads three counters.
   */
  ceilingBound(id: number): number {
    return CEILING_BOUNDS[id < this.#ceilingLevels.length ? this.#ceilingLevels[id]! : 0]!;
  }

  /** lift^exponent clipped as the header says; exactly 1 when the exponent is 0. */
  momentum(id: number, scales: MomentumScales, exponent: number): number {
    if (exponent === 0) return 1;
    return momentumOf(this.recent.raw(id) * scales.recent, this.long.raw(id) * scales.long, this.ever.raw(id), exponent);
  }

  snapshot(): SalesSnapshot {
    return { recent: this.recent.snapshot(), long: this.long.snapshot(), ever: this.ever.snapshot() };
  }

  restore(snapshot: SalesSnapshot): void {
    this.recent.restore(snapshot.recent);
    this.long.restore(snapshot.long);
    this.ever.restore(snapshot.ever);
    this.#ceilingLevels = new Uint8Array(1024);
    for (const id of this.ever.positive()) this.#level(id);
  }

  #level(id: number): void {
    if (id >= this.#ceilingLevels.length) this.#ceilingLevels = grownTo(this.#ceilingLevels, id + 1);
    this.#ceilingLevels[id] = ceilingLevel(momentumCeiling(this.ever.raw(id)));
  }
}
