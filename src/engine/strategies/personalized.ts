// personalized (SAR-like, RP3β-weighted): score(j) = Σ_i affinity(i) · [J_shopper(i, j) +
// 0.1 · J_basket(i, j)] over the products i the shopper interacted with, where J_shopper is the
// Jaccard index of the shoppers' histories holding both (each pair weighted by 1/history size)
// and J_basket that of the orders or carts holding both. Products the shopper bought (unless the
// catalog marks them repurchasable) never come back: recommend() blocks them for the whole
// answer. On the Online Retail protocol (bench/quality) this scores nDCG@10 0.095; plain
// SAR-Jaccard under the same memory bounds scored 0.081.
// Work per answer: ≤ 50 seeds × (a shopper-history row of ≤ 2·shopperNeighbors entries and a
// basket row of ≤ 2·maxNeighbors) on a score board, then a top-k heap over the candidates touched.
// With an EASE fit installed (engine.ease, refitted in the background), that real-time score is
// blended with the shopper's live history × B (offerBlended), and every candidate's score is
// multiplied by its momentum (engine/momentum.ts: the recent sales rate over the long-run one,
// clipped) to the blend's exponent (0.5 by default, tuned per shop), so what the shop sells now
// comes before what it sold last year: nDCG@10 through the API on Online Retail 0.132 split by
// time and 0.123 with its orders split at random across the year (exponent 1: 0.149 and 0.107;
// the unclipped recent-over-ever multiplier before it: 0.149 and 0.099). With the shop's
// recency off (engine.timePriors) there is no momentum, basket pairs count undecayed, the
// shopper's history weighs each product by its undecayed total and a fit answers alone
// (TIMELESS_EASE_BLEND: real-time weight 0), whatever blend it was tuned with. EASE adds
// ≤ (64 + 500) history rows of K entries per answer, momentum one power per candidate that could
// still enter the answer (held first to its score × the ceiling its sales ever allow, one byte:
// of ~1,250 candidates of a long history, ~35 read momentum's three counters). A cached answer
// reads the stamps of the rows it spread, the items it returned and the strongest real-time
// candidate (the blend's scale), not the popularity of every candidate: a candidate's momentum
// moving is seen within the cache's max age (30 s).
import type { CoOccurrence } from '../co-occurrence.js';
import type { EaseBlend } from '../ease/ease-model.js';
import { MAX_MOMENTUM, type MomentumScales } from '../momentum.js';
import type { PickList } from '../pick-list.js';
import type { NeighborTable } from '../neighbor-table.js';
import type { ScoreBoard } from '../score-board.js';
import type { TopK } from '../top-k.js';
import { EASE_PART, SETTINGS_PART, type ShopEngine } from '../shop-engine.js';
import type { Producer } from './context.js';

/** Affinity products used per request, strongest first: bounds the work of one answer. */
export const MAX_SEEDS = 50;
/** Weight of same-basket similarity next to same-shopper similarity (tuned offline). */
export const BASKET_WEIGHT = 0.1;

/**
 * Adds weight × Jaccard(item, j) for every neighbour j in the item's row (pair weights × `scale`
 * at now; with `undecayed`, the pairs' undecayed totals, which a decaying row keeps).
 */
function spread(board: ScoreBoard, similarity: CoOccurrence, item: number, weight: number, scale: number, undecayed = false): void {
  const pairs = similarity.pairs;
  const size = pairs.size(item);
  if (size === 0) return;
  const start = pairs.start(item);
  const weightStart = undecayed ? pairs.totalStart(item) : pairs.weightStart(item);
  const ids = pairs.ids;
  const weights = pairs.weights;
  // Every item in a row was counted in a group, so its index is inside groupCounts.
  const groups = similarity.compactGroupCounts;
  board.addJaccardRow(ids, start, size, weights, weightStart, scale, weight, groups, groups[item]!);
}

/** Where the rows of one answer lie: per row its start, size and weights' start (a scratch, refilled per answer). */
const rowSpans = new Int32Array(3 * 2 * MAX_SEEDS);
/** XOR of the words touchRows read: kept, so that those reads are not optimised away. */
let touchedWords = 0;

/**
 * Reads one word of each cache line the seeds' rows will be spread from, before any is spread.
 * A long history's 64 rows lie far apart in tables of hundreds of MB, so each row is a miss to
 * main memory: found all first and read in one tight loop, their misses overlap instead of
 * coming one row at a time (at 100k products / 10M events, ~10 µs less of a ~120 µs answer).
 */
function touchRows(seeds: TopK, seedCount: number, shopperItems: CoOccurrence, baskets: CoOccurrence, undecayedBaskets: boolean): void {
  let n = 0;
  for (let s = 0; s < seedCount; s++) {
    const item = seeds.idAt(s);
    n = locateRow(shopperItems.pairs, item, false, n);
    n = locateRow(baskets.pairs, item, undecayedBaskets, n);
  }
  let words = 0;
  for (let r = 0; r < n; r += 3) {
    // Rows alternate: the shopper-history row, then the basket row of the same seed.
    const ids = r % 6 === 0 ? shopperItems.pairs.ids : baskets.pairs.ids;
    const start = rowSpans[r]!;
    const end = start + rowSpans[r + 1]!;
    const weightStart = rowSpans[r + 2]!;
    const weightEnd = weightStart + rowSpans[r + 1]!;
    if (end === start) continue;
    // The weights share the ids' buffer: ids[] reads their lines as well (16 words a line).
    for (let p = start; p < end; p += 16) words ^= ids[p]!;
    for (let p = weightStart; p < weightEnd; p += 16) words ^= ids[p]!;
    words ^= ids[end - 1]! ^ ids[weightEnd - 1]!;
  }
  touchedWords ^= words;
}

function locateRow(pairs: NeighborTable, item: number, undecayed: boolean, n: number): number {
  const size = pairs.size(item);
  rowSpans[n] = pairs.start(item);
  rowSpans[n + 1] = size;
  rowSpans[n + 2] = size === 0 ? 0 : undecayed ? pairs.totalStart(item) : pairs.weightStart(item);
  return n + 3;
}

/** What the strategy reads of the shop's models. */
export type PersonalizedInputs = Pick<ShopEngine, 'affinities' | 'baskets' | 'ease' | 'historyWeights' | 'sales' | 'scratch' | 'shopperItems' | 'storeStamps' | 'timePriors'>;

export const personalized: Producer<PersonalizedInputs> = ({ engine, shoppers, now }, pick) => {
  // The customer's affinities when there are any, else the session's.
  const affinities = engine.affinities;
  const slot = shoppers.find((s) => affinities.size(s) > 0);
  if (slot === undefined) return;
  const { board, top, seeds } = engine.scratch;
  const reads = engine.scratch.reads;
  reads.read(engine.storeStamps, SETTINGS_PART);
  const timePriors = engine.timePriors;
  const values = engine.historyWeights();
  seeds.reset(MAX_SEEDS);
  const start = affinities.start(slot);
  for (let k = 0; k < affinities.size(slot); k++) seeds.offer(affinities.items[start + k]!, values[start + k]!);
  const seedCount = seeds.sort();
  const strongest = seeds.scoreAt(0);
  const basketScale = timePriors ? engine.baskets.scaleAt(now) : 1;
  touchRows(seeds, seedCount, engine.shopperItems, engine.baskets, !timePriors);
  for (let s = 0; s < seedCount; s++) {
    const item = seeds.idAt(s);
    reads.read(engine.shopperItems.stamps, item);
    reads.read(engine.baskets.stamps, item);
    const weight = seeds.scoreAt(s) / strongest; // relative affinity: scores stay readable at any decay state
    spread(board, engine.shopperItems, item, weight, 1);
    spread(board, engine.baskets, item, BASKET_WEIGHT * weight, basketScale, !timePriors);
  }
  top.reset(pick.remaining);
  // Read with or without a fit: installing the first one changes this answer too.
  reads.read(engine.storeStamps, EASE_PART);
  const scales = engine.sales.scalesAt(now);
  const blend = engine.ease.blendFor(timePriors);
  const exponent = blend.momentumExponent;
  if (engine.ease.ready) offerBlended(engine, slot, values, strongest, pick, scales, blend);
  else {
    // Of ~1,700 candidates of a long history ~100 come within reach of the heap at any momentum:
    // its floor, held here, turns the rest away without a call (exact for scores ≥ 0: score ·
    // momentum ≤ score · MAX_MOMENTUM < floor; any other score takes the full tests).
    let floor = top.floor;
    for (let i = 0; i < board.touchedCount; i++) {
      const id = board.touchedAt(i);
      const score = board.score(id);
      if (score >= 0 && score * MAX_MOMENTUM < floor) continue;
      offerWithMomentum(engine, pick, id, score, scales, exponent);
      floor = top.floor;
    }
  }
  board.clear();
  const count = top.sort();
  for (let r = 0; r < count; r++) {
    reads.read(engine.shopperItems.stamps, top.idAt(r));
    reads.read(engine.baskets.stamps, top.idAt(r));
    pick.offer(top.idAt(r), top.scoreAt(r), 'personalized');
  }
};

/**
 * Offers a candidate to the scratch heap at `score` × its momentum. A long history touches
 * thousands of candidates: the heap's cheap tests go first, then the pick list's (a bought
 * product is a candidate its history keeps offering), then the momentum's counters.
 */
function offerWithMomentum(engine: PersonalizedInputs, pick: PickList, id: number, score: number, scales: MomentumScales, exponent: number): void {
  const top = engine.scratch.top;
  // Most candidates of a long history are a tail no momentum can lift into the answer: the bounds
  // skip their counter reads and root (exact: score · momentum ≤ score · its ceiling bound ≤ score ·
  // MAX_MOMENTUM). The ceiling, one byte, is low for the many products that rarely sell.
  if (exponent === 0) {
    if (top.admits(id, score) && pick.accepts(id)) top.offer(id, score);
    return;
  }
  if (!top.admits(id, score * MAX_MOMENTUM) || !top.admits(id, score * engine.sales.ceilingBound(id)) || !pick.accepts(id)) return;
  const boosted = score * engine.sales.momentum(id, scales, exponent);
  if (top.admits(id, boosted)) top.offer(id, boosted);
}

/**
 * With an EASE fit installed: the shopper's whole live history (affinities, then purchases no
 * longer among them) spread through B into easeBoard, and each candidate offered to `top` at
 * ease / max ease + realTimeWeight · real-time / max real-time, so products outside the fit
 * still come from the real-time model and an event changes the next answer at once.
 */
function offerBlended(engine: PersonalizedInputs, slot: number, values: Float32Array, strongest: number, pick: PickList, scales: MomentumScales, blend: Readonly<EaseBlend>): void {
  const { board, easeBoard, history } = engine.scratch;
  const affinities = engine.affinities;
  const ease = engine.ease;
  const { realTimeWeight, historyExponent, momentumExponent: exponent } = blend;
  history.clear();
  const start = affinities.start(slot);
  let weakest = strongest;
  for (let k = 0; k < affinities.size(slot); k++) {
    const item = affinities.items[start + k]!;
    const value = values[start + k]!;
    weakest = Math.min(weakest, value);
    history.add(item);
    ease.spread(easeBoard, item, (value / strongest) ** historyExponent);
  }
  const older = (weakest / strongest) ** historyExponent;
  affinities.purchasesOf(slot, (item) => {
    if (history.has(item)) return;
    history.add(item);
    ease.spread(easeBoard, item, older);
  });
  let maxEase = 0;
  for (let i = 0; i < easeBoard.touchedCount; i++) maxEase = Math.max(maxEase, easeBoard.score(easeBoard.touchedAt(i)));
  let maxRealTime = 0;
  let strongestCandidate = -1;
  for (let i = 0; i < board.touchedCount; i++) {
    const id = board.touchedAt(i);
    if (board.score(id) > maxRealTime) {
      maxRealTime = board.score(id);
      strongestCandidate = id;
    }
  }
  // Real-time scores are taken relative to the strongest, returned or not (an excluded or bought
  // product still sets the scale): its rows are read as the returned products' are. (EASE's scale
  // comes from B and the history alone, read already.)
  if (strongestCandidate >= 0) {
    engine.scratch.reads.read(engine.shopperItems.stamps, strongestCandidate);
    engine.scratch.reads.read(engine.baskets.stamps, strongestCandidate);
  }
  const easeScale = maxEase > 0 ? 1 / maxEase : 0;
  const realTimeScale = maxRealTime > 0 ? realTimeWeight / maxRealTime : 0;
  // B's negative weights can leave a candidate at or below 0: the backfill does better than those.
  for (let i = 0; i < board.touchedCount; i++) {
    const id = board.touchedAt(i);
    const score = board.score(id) * realTimeScale + easeBoard.score(id) * easeScale;
    if (score > 0) offerWithMomentum(engine, pick, id, score, scales, exponent);
  }
  for (let i = 0; i < easeBoard.touchedCount; i++) {
    const id = easeBoard.touchedAt(i);
    const score = easeBoard.score(id) * easeScale;
    if (score > 0 && board.flags(id) === 0) offerWithMomentum(engine, pick, id, score, scales, exponent);
  }
  easeBoard.clear();
}
