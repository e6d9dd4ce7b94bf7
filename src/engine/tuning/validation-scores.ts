// Scores personalized's blend on a validation split: for each held-out shopper, the candidates'
// scores as offerBlended computes them (EASE through the shopper's training history at relative
// affinity^historyExponent, plus realTimeWeight × the real-time score, each relative to its best
// candidate, × momentum^momentumExponent), the shopper's training purchases left out, and nDCG@10
// of the top 10 against the held-out purchases. The real-time model is the training histories'
// item Jaccard, top-k per item (the engine's shopper-history rows are too). One nDCG per shopper
// and setting, so settings can be compared shopper by shopper (decision.ts).
// Work: per shopper, history × K row reads per history exponent, then n per setting (dense
// boards of the fit's n items; n ≤ 5,000).
import type { EaseRows, Histories, Matrix } from '../ease/solver.js';
import { momentumOf } from '../momentum.js';
import type { ItemFacts, ValidationSplit } from './validation-split.js';

export const TOP_N = 10;

/** The blends scored for one fit: every combination. */
export interface BlendGrid {
  momentumExponents: readonly number[];
  realTimeWeights: readonly number[];
  historyExponents: readonly number[];
}

export interface Blend {
  momentumExponent: number;
  realTimeWeight: number;
  historyExponent: number;
}

/** The grid's blends, in a fixed order (history exponent, then real-time weight, then momentum). */
export function blendsOf(grid: BlendGrid): Blend[] {
  const blends: Blend[] = [];
  for (const historyExponent of grid.historyExponents) {
    for (const realTimeWeight of grid.realTimeWeights) {
      for (const momentumExponent of grid.momentumExponents) blends.push({ momentumExponent, realTimeWeight, historyExponent });
    }
  }
  return blends;
}

/**
 * Offers (id, score) to the best-first lists `ids`/`scores` holding `size` of at most their length
 * (an insertion: k is small); returns the new size. Equal scores keep the one offered first.
 */
export function offerBest(ids: Int32Array, scores: Float64Array, size: number, id: number, score: number): number {
  const k = ids.length;
  if (size === k && score <= scores[k - 1]!) return size;
  let at = size < k ? size++ : k - 1;
  while (at > 0 && scores[at - 1]! < score) {
    scores[at] = scores[at - 1]!;
    ids[at] = ids[at - 1]!;
    at--;
  }
  scores[at] = score;
  ids[at] = id;
  return size;
}

/** The k strongest Jaccard neighbours of each item from G = XᵀX: G_ij / (G_ii + G_jj − G_ij). */
export function jaccardRows(g: Matrix, n: number, k: number): EaseRows {
  const rows: EaseRows = { n, k, sizes: new Uint8Array(n), ids: new Int32Array(n * k), weights: new Float32Array(n * k) };
  const ids = new Int32Array(k);
  const weights = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let size = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) {
      const together = g[row + j]!;
      if (j === i || !(together > 0)) continue;
      const w = together / (g[row + i]! + g[j * n + j]! - together);
      size = offerBest(ids, weights, size, j, w);
    }
    rows.sizes[i] = size;
    rows.ids.set(ids.subarray(0, size), i * k);
    for (let r = 0; r < size; r++) rows.weights[i * k + r] = weights[r]!;
  }
  return rows;
}

/**
 * Each item's momentum at each exponent of `exponents`, with the held-out purchases taken out of
 * its sales (a purchase counts 1; in the long-run count, about 1: it is among the newest), as
 * engine/momentum.ts computes it: boosts[m][item].
 */
export function momentumBoosts(items: ItemFacts, split: ValidationSplit, exponents: readonly number[]): Float64Array[] {
  const n = items.recent.length;
  return exponents.map((exponent) => {
    const boosts = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      const recent = Math.max(0, items.recent[j]! - split.heldRecent[j]! * items.recentUnits);
      const long = Math.max(0, items.long[j]! - split.heldOrders[j]!);
      const ever = Math.max(0, items.ever[j]! - split.heldOrders[j]!);
      boosts[j] = momentumOf(recent, long, ever, exponent);
    }
    return boosts;
  });
}

/** DCG discounts of ranks 0..TOP_N-1. */
export const DISCOUNT = Float64Array.from({ length: TOP_N }, (_, r) => 1 / Math.log2(r + 2));

/** Reused per-shopper buffers. */
class Boards {
  readonly ease: Float64Array;
  readonly realTime: Float64Array;
  readonly excluded: Uint8Array;
  readonly relevant: Uint8Array;
  readonly topIds = new Int32Array(TOP_N);
  readonly topScores = new Float64Array(TOP_N);
  constructor(n: number) {
    this.ease = new Float64Array(n);
    this.realTime = new Float64Array(n);
    this.excluded = new Uint8Array(n);
    this.relevant = new Uint8Array(n);
  }
}

function spreadRows(board: Float64Array, rows: EaseRows, item: number, weight: number): void {
  const start = item * rows.k;
  const end = start + rows.sizes[item]!;
  for (let r = start; r < end; r++) board[rows.ids[r]!] += weight * rows.weights[r]!;
}

/** nDCG@10 of the n items ranked by `score(j)` (only scores > 0 rank; ties by lower index), excluded ones left out. */
function ndcg(boards: Boards, n: number, held: number, score: (j: number) => number): number {
  const { topIds, topScores, excluded, relevant } = boards;
  let size = 0;
  for (let j = 0; j < n; j++) {
    if (excluded[j] === 1) continue;
    const s = score(j);
    if (s > 0) size = offerBest(topIds, topScores, size, j, s);
  }
  let dcg = 0;
  for (let r = 0; r < size; r++) if (relevant[topIds[r]!] === 1) dcg += DISCOUNT[r]!;
  let ideal = 0;
  for (let r = 0; r < Math.min(TOP_N, held); r++) ideal += DISCOUNT[r]!;
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Marks the validation shopper's training purchases excluded and held-out items relevant; returns the held-out count. */
function prepare(boards: Boards, split: ValidationSplit, v: number, on: 0 | 1): number {
  const { train, bought, rows, heldStarts, heldItems } = split;
  const s = rows[v]!;
  for (let k = train.starts[s]!; k < train.starts[s + 1]!; k++) if (bought[k] === 1) boards.excluded[train.items[k]!] = on;
  for (let h = heldStarts[v]!; h < heldStarts[v + 1]!; h++) boards.relevant[heldItems[h]!] = on;
  return heldStarts[v + 1]! - heldStarts[v]!;
}

/**
 * Per blend (blendsOf order), each validation shopper's nDCG@10 with EASE rows `ease` (fitted on
 * split.train), real-time rows `realTime` (jaccardRows of the same) and momentum `boosts`
 * (momentumBoosts at the grid's momentum exponents).
 */
export function scoreBlends(n: number, split: ValidationSplit, ease: EaseRows, realTime: EaseRows, boosts: readonly Float64Array[], grid: BlendGrid): Float32Array[] {
  const blends = blendsOf(grid);
  const shoppers = split.rows.length;
  const out = blends.map(() => new Float32Array(shoppers));
  const boards = new Boards(n);
  const { train, strengths } = split;
  for (let v = 0; v < shoppers; v++) {
    const held = prepare(boards, split, v, 1);
    const s = split.rows[v]!;
    const from = train.starts[s]!;
    const to = train.starts[s + 1]!;
    boards.realTime.fill(0);
    for (let k = from; k < to; k++) spreadRows(boards.realTime, realTime, train.items[k]!, strengths[k]!);
    let maxRealTime = 0;
    for (let j = 0; j < n; j++) maxRealTime = Math.max(maxRealTime, boards.realTime[j]!);
    let b = 0;
    for (const historyExponent of grid.historyExponents) {
      boards.ease.fill(0);
      for (let k = from; k < to; k++) spreadRows(boards.ease, ease, train.items[k]!, strengths[k]! ** historyExponent);
      let maxEase = 0;
      for (let j = 0; j < n; j++) maxEase = Math.max(maxEase, boards.ease[j]!);
      const easeScale = maxEase > 0 ? 1 / maxEase : 0;
      for (const realTimeWeight of grid.realTimeWeights) {
        const realTimeScale = maxRealTime > 0 ? realTimeWeight / maxRealTime : 0;
        for (let m = 0; m < grid.momentumExponents.length; m++) {
          const boost = boosts[m]!;
          out[b++]![v] = ndcg(boards, n, held, (j) => (boards.ease[j]! * easeScale + boards.realTime[j]! * realTimeScale) * boost[j]!);
        }
      }
    }
    prepare(boards, split, v, 0);
  }
  return out;
}

/** Each validation shopper's nDCG@10 for products ranked by how many training histories hold them. */
export function scorePopularity(n: number, split: ValidationSplit): Float32Array {
  const counts = new Float64Array(n);
  const train: Histories = split.train;
  for (let k = 0; k < train.items.length; k++) counts[train.items[k]!] += 1;
  const boards = new Boards(n);
  const out = new Float32Array(split.rows.length);
  for (let v = 0; v < split.rows.length; v++) {
    const held = prepare(boards, split, v, 1);
    out[v] = ndcg(boards, n, held, (j) => counts[j]!);
    prepare(boards, split, v, 0);
  }
  return out;
}
