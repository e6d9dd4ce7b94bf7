// The batch half of personalized: the latest EASE fit of a shop as compact top-K rows (EASE index
// → engine dense ids and weights), replaced whole by swap() so an answer reads either the old fit
// or the new one, never a mix. The fit itself runs elsewhere (fitEase, in a worker); this holds
// its result and spreads a shopper's history through it. Memory: n × K × 8 bytes of rows plus
// 4 bytes per engine dense id for the index (n ≤ a few thousand items, K ≤ 255).
import type { ScoreBoard } from '../score-board.js';
import { blendOf, type TuningReport } from '../tuning/tuned-settings.js';
import { bytesOf, fromBytes } from '../typed-arrays.js';
import type { CartBlend, EaseBlend } from './ease-blend.js';
import type { EaseRows } from './solver.js';

/** A finished fit: rows over `items.length` items, `items[e]` the engine dense id of EASE index e. */
export interface EaseFit {
  items: Int32Array;
  rows: EaseRows;
  /** How the shop's settings were chosen with this fit (its λ among them); absent: the defaults, untuned. */
  tuning?: TuningReport;
}

/** The installed fit as bytes (views: a fit is never changed once installed, only replaced). */
export interface EaseSnapshot {
  k: number;
  items: Uint8Array;
  sizes: Uint8Array;
  ids: Uint8Array;
  weights: Uint8Array;
  /** Absent in snapshots of untuned fits (and of versions before tuning). */
  tuning?: TuningReport | null;
}

interface Installed {
  fit: EaseFit;
  /** By engine dense id: EASE index + 1, 0 outside the fit. */
  indexOf: Int32Array;
}

export type { CartBlend, EaseBlend };

export const DEFAULT_EASE_BLEND: Readonly<EaseBlend> = Object.freeze({ realTimeWeight: 0.1, historyExponent: 0, momentumExponent: 0.5 });

/**
 * A cart's blend before a shop's tuner chose one (docs/models.md, "Carts"): on validation carved
 * from Online Retail's training orders (npm run bench:quality-cart: carts of up to five products of
 * later orders, nDCG@10 on the rest of the order), pairs 1 and content 0.3 beside EASE scored best
 * of a grid of pairs 0-2 and content 0-0.6 by time (0.3268) and within 0.001 of the best at random
 * (0.3305; content 0.15: 0.3317), 0.015 (at random) to 0.022 (by time) above EASE alone.
 */
export const DEFAULT_CART_BLEND: Readonly<CartBlend> = Object.freeze({ easeWeight: 1, pairWeight: 1, contentWeight: 0.3 });

/**
 * What answers apply with the shop's recency off, whatever fit is installed: nothing time-based
 * (no momentum, every history item alike) and EASE alone. The real-time model's edge is being
 * current, and a fit still moves with each event through the shopper's history × B. The tuner
 * then tunes λ only: on held-out whole orders its stand-in for the real-time model (training
 * histories' item Jaccard, not the engine's shopper and basket rows) cannot judge the weight. On
 * Online Retail's orders split at random, λ 500 at weight 0 / 0.03 / 0.1 / 0.3 scored nDCG@10
 * 0.1372 / 0.1364 / 0.1350 / 0.1323 in the test period.
 */
export const TIMELESS_EASE_BLEND: Readonly<EaseBlend> = Object.freeze({ realTimeWeight: 0, historyExponent: 0, momentumExponent: 0 });

export class EaseModel {
  #installed: Installed | undefined;
  /**
   * What personalized reads: the installed fit's tuned settings, else the defaults. Set by swap() (the
   * one place a shop's tuned settings enter the engine); offline evaluation also sets it directly.
   */
  blend: Readonly<EaseBlend> = DEFAULT_EASE_BLEND;
  /** What bought-together reads for a cart: the installed fit's tuned cart blend, else the default. Set by swap(), as `blend`. */
  cartBlend: Readonly<CartBlend> = DEFAULT_CART_BLEND;

  /** The blend answers apply: the installed one, or TIMELESS_EASE_BLEND when nothing time-based may count. */
  blendFor(timePriors: boolean): Readonly<EaseBlend> {
    return timePriors ? this.blend : TIMELESS_EASE_BLEND;
  }

  /** How the installed fit's settings were chosen; undefined with no fit or an untuned one. */
  get tuning(): TuningReport | undefined {
    return this.#installed?.fit.tuning;
  }

  /** Whether a fit is installed. */
  get ready(): boolean {
    return this.#installed !== undefined;
  }

  /** The installed fit (what a snapshot stores), or undefined. */
  get fit(): EaseFit | undefined {
    return this.#installed?.fit;
  }

  /** Items in the installed fit (0 when none). */
  get size(): number {
    return this.#installed?.fit.items.length ?? 0;
  }

  /** Replaces the fit in one assignment: the index is built first, aside. */
  swap(fit: EaseFit): void {
    if (fit.rows.n !== fit.items.length) throw new RangeError(`an EASE fit of ${fit.rows.n} rows names ${fit.items.length} items`);
    let max = -1;
    for (let e = 0; e < fit.items.length; e++) max = Math.max(max, fit.items[e]!);
    const indexOf = new Int32Array(max + 1);
    for (let e = 0; e < fit.items.length; e++) indexOf[fit.items[e]!] = e + 1;
    this.#installed = { fit, indexOf };
    this.blend = fit.tuning === undefined ? DEFAULT_EASE_BLEND : Object.freeze(blendOf(fit.tuning.settings));
    const cart = fit.tuning?.settings.cart;
    this.cartBlend = cart === undefined ? DEFAULT_CART_BLEND : Object.freeze({ ...cart });
  }

  snapshot(): EaseSnapshot | null {
    const fit = this.#installed?.fit;
    if (fit === undefined) return null;
    const { rows } = fit;
    return { k: rows.k, items: bytesOf(fit.items), sizes: rows.sizes, ids: bytesOf(rows.ids), weights: bytesOf(rows.weights), tuning: fit.tuning ?? null };
  }

  /** Installs a snapshot's fit (none: keeps the model empty). */
  restore(snapshot: EaseSnapshot | null): void {
    if (snapshot === null) return;
    const items = fromBytes(Int32Array, snapshot.items);
    const sizes = fromBytes(Uint8Array, snapshot.sizes);
    const rows = { n: items.length, k: snapshot.k, sizes, ids: fromBytes(Int32Array, snapshot.ids), weights: fromBytes(Float32Array, snapshot.weights) };
    this.swap(snapshot.tuning == null ? { items, rows } : { items, rows, tuning: snapshot.tuning });
  }

  /** Whether the dense id is one of the fit's items. */
  has(dense: number): boolean {
    const installed = this.#installed;
    return installed !== undefined && dense < installed.indexOf.length && installed.indexOf[dense]! > 0;
  }

  /** Adds weight × B(item, j) to the board for each j in the item's row; false when the item is outside the fit. */
  spread(board: ScoreBoard, dense: number, weight: number): boolean {
    const installed = this.#installed;
    if (installed === undefined || dense >= installed.indexOf.length) return false;
    const e = installed.indexOf[dense]! - 1;
    if (e < 0) return false;
    const { rows, items } = installed.fit;
    const start = e * rows.k;
    const end = start + rows.sizes[e]!;
    for (let r = start; r < end; r++) board.add(items[rows.ids[r]!]!, weight * rows.weights[r]!);
    return true;
  }
}
