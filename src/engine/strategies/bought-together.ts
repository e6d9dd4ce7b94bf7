// bought-together: the products most often in the same basket (order or cart) as the context product,
// nudged by content similarity. Pair score = (d + f·c)·(c/(c+3))² / n^β for a pair seen in c
// baskets, d of them once decayed (half-life 30 days by default; a cart counts cartPairWeight of an
// order), f the config's pairFloor (0.1), the candidate being in n baskets, β the config's
// pairPopularityExponent (0.1). The decayed count says how strong the pair is now, and the floor
// keeps a share of last season's pairs however old; the significance (c/(c+3))² says how sure
// that is, from every basket however old: a pair seen once is mostly noise however recent, one
// seen often stays credible as it ages. The mild discount is for best-sellers that sit in every
// basket by chance: a strong discount (lift, cosine) loses more than it gains, because a
// best-seller is also what the next basket most likely holds. Each pair score is taken relative
// to the row's best, the best counting as at least a pair seen in the config's
// pairConfidenceBaskets (5) baskets today: a product whose strongest pair is weak has uncertain
// partners, scored below 1. Then pairContentWeight (0.2) × the content cosine of the product's
// content neighbours is added: among partners of similar strength the one like the context
// product (same range, same words) comes first, and a weak or sparse row gets like products
// rather than the next strategy's best-sellers.
// A candidate that comes by content alone (no basket pair) is labelled `similar` at model level 0,
// as the similar strategy labels it: each item names the model that really produced it. A product
// with no basket partner at all answers nothing here: the chain's `similar` follows.
// On the Online Retail protocol see docs/models.md for the numbers.
// Work per answer: one pass over the product's neighbour row (≤ 2K entries) and its content
// neighbours (≤ 50) on the score board, then a top-k heap over the candidates touched.
import { groupLevel, levelGroups, pairSignificance } from '../co-occurrence.js';
import { DEFAULT_ENGINE_CONFIG } from '../engine-config.js';
import type { ScoreBoard } from '../score-board.js';
import { SETTINGS_PART, type ShopEngine } from '../shop-engine.js';
import { addContentNeighbors, rankBoard } from './board-candidates.js';
import type { Producer } from './context.js';

/** Score-board flag of candidates with a basket pair. */
export const PAIRED = 2;

/**
 * A pair's score: its decayed count `decayed` and undecayed count `total`, the candidate in
 * `candidateBaskets` baskets, `floor` the config's pairFloor, `exponent` its pairPopularityExponent.
 */
export function pairScore(
  decayed: number,
  total: number,
  candidateBaskets: number,
  floor: number,
  exponent = DEFAULT_ENGINE_CONFIG.pairPopularityExponent,
): number {
  return undiscountedPairScore(decayed, total, floor) / discountsOf(exponent)[groupLevel(candidateBaskets)]!;
}

/** A pair's score before the candidate's best-seller discount: (d + f·c)·(c/(c+3))². */
function undiscountedPairScore(decayed: number, total: number, floor: number): number {
  return (decayed + floor * total) * pairSignificance(total);
}

/**
 * The best-seller discount n^β of a candidate at its basket count's level (a factor √2 wide: at
 * β = 0.1 the discount is within 1.8 % of exact). A level, not the count itself: the answer then
 * reads the returned products' level stamps, which most of their sales leave alone, so a busy
 * store's cached answers are not recomputed at every sale of a product they list (validation
 * 0.2656 against 0.2658).
 */
function discountAt(level: number, exponent: number): number {
  return levelGroups(level) ** exponent;
}

/**
 * What a row's best counts as at least: the score of a pair seen in `baskets` baskets today, all
 * of them recent (its decayed and undecayed counts equal), before any best-seller discount.
 */
export function confidentPairScore(baskets: number, floor: number): number {
  return undiscountedPairScore(baskets, baskets, floor);
}

/**
 * discountAt of every level a count can reach (float32 counts stop at 2^24: level 48), per exponent.
 * Exponents come from engine configs (a handful per process), never from a request.
 */
const DISCOUNTS = new Map<number, Float64Array>();

/** The best-seller discount n^β of every level (index: the level), one table per β. */
export function discountsOf(exponent: number): Float64Array {
  let discounts = DISCOUNTS.get(exponent);
  if (discounts === undefined) {
    discounts = Float64Array.from({ length: 64 }, (_, level) => discountAt(level, exponent));
    DISCOUNTS.set(exponent, discounts);
  }
  return discounts;
}

/**
 * Scores `product`'s basket row into engine.scratch.rowScores (each pair score once, before the
 * row's best is known: the row's entries in order, valid until the next call) and records what the
 * scores read: the row, and the level of its best pair (every score is relative to it, returned or
 * not: an excluded product still sets the scale; when the confident score stands in for the best,
 * the best's level still decides which of the two is larger). Returns what each score is
 * multiplied by to be relative to the row's best (0: an empty row).
 */
export function scoreRow(engine: BoughtTogetherInputs, product: number, now: number): number {
  const baskets = engine.baskets;
  const pairs = baskets.pairs;
  const size = pairs.size(product);
  engine.scratch.reads.read(baskets.stamps, product);
  if (size === 0) return 0;
  engine.scratch.reads.read(engine.storeStamps, SETTINGS_PART);
  const scores = engine.scratch.rowScores(size);
  const start = pairs.start(product);
  const totalStart = pairs.totalStart(product);
  // With the shop's recency off, a pair's decayed count is its undecayed one.
  const timePriors = engine.timePriors;
  const weightStart = timePriors ? pairs.weightStart(product) : totalStart;
  const ids = pairs.ids;
  const weights = pairs.weights;
  const scale = timePriors ? baskets.scaleAt(now) : 1;
  const { pairFloor: floor, pairConfidenceBaskets } = engine.config;
  const discounts = discountsOf(engine.config.pairPopularityExponent);
  let best = 0;
  let bestId = -1;
  for (let k = 0; k < size; k++) {
    const id = ids[start + k]!;
    const score = undiscountedPairScore(weights[weightStart + k]! * scale, weights[totalStart + k]!, floor) / discounts[baskets.levelOf(id)]!;
    scores[k] = score;
    if (score > best) {
      best = score;
      bestId = id;
    }
  }
  if (bestId >= 0) engine.scratch.reads.read(baskets.levelStamps, bestId);
  return best > 0 ? 1 / Math.max(best, confidentPairScore(pairConfidenceBaskets, floor)) : 0;
}

/** Adds `weight` × the product's relative pair scores to `board`, flagged `flag`; returns whether the row had any. */
export function addPairRow(engine: BoughtTogetherInputs, product: number, board: ScoreBoard, now: number, weight: number, flag: number): boolean {
  const factor = scoreRow(engine, product, now) * weight;
  const pairs = engine.baskets.pairs;
  const size = pairs.size(product);
  if (size === 0) return false;
  const start = pairs.start(product);
  board.addRow(pairs.ids, start, engine.scratch.rowScores(size), 0, size, factor, flag);
  return true;
}

/** What the strategy reads of the shop's models. */
export type BoughtTogetherInputs = Pick<ShopEngine, 'baskets' | 'compareIds' | 'config' | 'content' | 'scratch' | 'storeStamps' | 'timePriors'>;

export const boughtTogether: Producer<BoughtTogetherInputs> = ({ engine, product, now }, pick) => {
  if (product === undefined) return;
  const { board, top } = engine.scratch;
  if (!addPairRow(engine, product, board, now, 1, PAIRED)) return;
  addContentNeighbors(engine, product, board, engine.config.pairContentWeight);
  const count = rankBoard(board, pick, top);
  const reads = engine.scratch.reads;
  const baskets = engine.baskets;
  for (let r = 0; r < count; r++) {
    const id = top.idAt(r);
    reads.read(baskets.levelStamps, id); // its discount (its pair with the product is in the row read above)
    if ((board.flags(id) & PAIRED) !== 0) pick.offer(id, top.scoreAt(r), 'bought-together');
    else pick.offer(id, top.scoreAt(r), 'similar', 0);
  }
  board.clear();
};
