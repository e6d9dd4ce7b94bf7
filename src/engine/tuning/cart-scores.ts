// Scores bought-together's cart blends on a cart split (cart-split.ts): for each held-out order,
// its cart spread through EASE's rows (fitted on split.train) and through the basket stand-in's
// rows (pairs counted over the training orders and scored as a cart answer scores a basket row:
// (1 + f)·c·(c/(c+3))² / n^β over the middle of the product's order-count level), each part
// relative to its best candidate outside the cart, weighted per blend and divided by the
// candidate's best-seller discount as the engine divides it; nDCG@10 of the top 10 against the
// rest of the order. The stand-in has every pair undecayed (orders here carry no times beyond
// their shopper's), and content is not scored (the content index lives with the engine, not in
// the refit's thread): a blend's content weight is the default's, untuned. One nDCG per cart and blend, so blends compare cart by cart (decision.ts).
// Work: per cart, ≤ 5 × (K + k) row reads, then n per blend.
import { groupLevel, levelGroups } from '../co-occurrence.js';
import { CART_POPULARITY_EXPONENT, type CartBlend } from '../ease/ease-blend.js';
import type { EaseRows, Matrix } from '../ease/solver.js';
import { discountsOf, pairScore } from '../strategies/bought-together.js';
import type { CartSplit } from './cart-split.js';
import { DISCOUNT, offerBest, TOP_N } from './validation-scores.js';

export interface PairStandIn {
  /** The engine's pairFloor and pairPopularityExponent. */
  floor: number;
  exponent: number;
  /** Pairs kept per product (the engine's basket rows keep maxNeighbors, buffering twice that). */
  neighbors: number;
}

/** The basket stand-in's rows from the training orders' Gram matrix `g` (diagonal: orders holding each product), each over the middle of its product's order-count level. */
export function basketRows(g: Matrix, n: number, standIn: PairStandIn): EaseRows {
  const k = standIn.neighbors;
  const rows: EaseRows = { n, k, sizes: new Uint8Array(n), ids: new Int32Array(n * k), weights: new Float32Array(n * k) };
  const ids = new Int32Array(k);
  const scores = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let size = 0;
    const row = i * n;
    for (let j = 0; j < n; j++) {
      const c = g[row + j]!;
      if (j === i || !(c > 0)) continue;
      size = offerBest(ids, scores, size, j, pairScore(c, c, g[j * n + j]!, standIn.floor, standIn.exponent));
    }
    rows.sizes[i] = size;
    const relativeTo = levelGroups(groupLevel(g[row + i]!));
    for (let r = 0; r < size; r++) {
      rows.ids[i * k + r] = ids[r]!;
      rows.weights[i * k + r] = scores[r]! / relativeTo;
    }
  }
  return rows;
}

function spread(board: Float64Array, rows: EaseRows, item: number): void {
  const start = item * rows.k;
  const end = start + rows.sizes[item]!;
  for (let r = start; r < end; r++) board[rows.ids[r]!] += rows.weights[r]!;
}

/** Each product's best-seller discount as a cart answer divides by it (cart-together.ts), from the training orders' Gram matrix `g` (its diagonal). */
export function cartDiscounts(g: Matrix, n: number): Float64Array {
  const discounts = discountsOf(CART_POPULARITY_EXPONENT);
  return Float64Array.from({ length: n }, (_, j) => discounts[groupLevel(g[j * n + j]!)]!);
}

/** Per blend (in `blends` order), each held-out cart's nDCG@10; each candidate's blend over its `discounts` entry, as the engine divides it. */
export function scoreCarts(n: number, split: CartSplit, ease: EaseRows, pairs: EaseRows, blends: readonly CartBlend[], discounts: Float64Array): Float32Array[] {
  const { starts, items, cartSizes } = split.carts;
  const carts = cartSizes.length;
  const out = blends.map(() => new Float32Array(carts));
  const easeBoard = new Float64Array(n);
  const pairBoard = new Float64Array(n);
  const inCart = new Uint8Array(n);
  const relevant = new Uint8Array(n);
  const topIds = new Int32Array(TOP_N);
  const topScores = new Float64Array(TOP_N);
  for (let c = 0; c < carts; c++) {
    const from = starts[c]!;
    const cartEnd = from + cartSizes[c]!;
    const to = starts[c + 1]!;
    easeBoard.fill(0);
    pairBoard.fill(0);
    for (let k = from; k < cartEnd; k++) {
      inCart[items[k]!] = 1;
      spread(easeBoard, ease, items[k]!);
      spread(pairBoard, pairs, items[k]!);
    }
    for (let k = cartEnd; k < to; k++) relevant[items[k]!] = 1;
    let maxEase = 0;
    let maxPairs = 0;
    for (let j = 0; j < n; j++) {
      if (inCart[j] === 1) continue;
      maxEase = Math.max(maxEase, easeBoard[j]!);
      maxPairs = Math.max(maxPairs, pairBoard[j]!);
    }
    let ideal = 0;
    for (let r = 0; r < Math.min(TOP_N, to - cartEnd); r++) ideal += DISCOUNT[r]!;
    blends.forEach((blend, b) => {
      const easeScale = maxEase > 0 ? blend.easeWeight / maxEase : 0;
      const pairScale = maxPairs > 0 ? blend.pairWeight / maxPairs : 0;
      let size = 0;
      for (let j = 0; j < n; j++) {
        if (inCart[j] === 1) continue;
        const score = easeBoard[j]! * easeScale + pairBoard[j]! * pairScale;
        if (score > 0) size = offerBest(topIds, topScores, size, j, score / discounts[j]!);
      }
      let dcg = 0;
      for (let r = 0; r < size; r++) if (relevant[topIds[r]!] === 1) dcg += DISCOUNT[r]!;
      out[b]![c] = ideal === 0 ? 0 : dcg / ideal;
    });
    for (let k = from; k < to; k++) {
      inCart[items[k]!] = 0;
      relevant[items[k]!] = 0;
    }
  }
  return out;
}
