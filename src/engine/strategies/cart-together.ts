// bought-together for a cart (two products or more): the products that go with the cart as a whole,
// not a union of per-product lists. Three parts, each summed over the cart's products and taken
// relative to its best candidate (CartBlend, ease-blend.ts): EASE's x·B with x the cart (the batch
// model, where a product that goes with several of the cart's products adds up), the basket pair
// rows scored as the single-product answer scores them but each over its product's basket count
// (a conditional rate: the real-time model, where an acknowledged purchase changes the next answer;
// with the shop's recency off, undecayed), and the cosine of each cart product's closest content
// neighbours. The shop's tuner weighs the parts on its own orders (tuning/cart-scores.ts);
// before a fit, or for products outside it, the pairs and content answer alone.
// The blend is divided by the candidate's best-seller discount n^β (CART_POPULARITY_EXPONENT).
// A candidate with no basket pair and no EASE weight comes by content alone and is labelled
// `similar` at model level 0, as the single-product answer labels it.
// Work per answer: per cart product (≤ 24) its basket row (≤ 2K entries), its EASE row (≤ K) and
// its closest content neighbours (≤ 10) on three score boards, then one pass over the candidates touched
// and a top-k heap.
import type { ScoreBoard } from '../score-board.js';
import { EASE_PART, SETTINGS_PART, type ShopEngine } from '../shop-engine.js';
import { CART_POPULARITY_EXPONENT } from '../ease/ease-blend.js';
import { discountsOf, PAIRED, scoreRow, type BoughtTogetherInputs } from './bought-together.js';
import { levelGroups } from '../co-occurrence.js';
import { addContentNeighbors } from './board-candidates.js';
import type { Producer } from './context.js';

/**
 * Content neighbours taken per cart product, best first (of the 50 kept). Content breaks ties
 * among partners and fills a sparse cart; past a product's closest ones a cosine summed over
 * the cart rarely reaches the answer, and each neighbour costs a place on the board.
 */
export const CART_CONTENT_NEIGHBORS = 10;

/** The id with the best score on `board` among ids outside the cart; -1 when none is positive. */
function bestOutside(board: ScoreBoard, cart: readonly number[]): number {
  let best = 0;
  let bestId = -1;
  for (let i = 0; i < board.touchedCount; i++) {
    const candidate = board.touchedAt(i);
    const score = board.score(candidate);
    if (score > best && !cart.includes(candidate)) {
      best = score;
      bestId = candidate;
    }
  }
  return bestId;
}

/** What multiplies a part's scores: `weight` over its best candidate's score (0 with none). */
function partScale(board: ScoreBoard, best: number, weight: number): number {
  return best < 0 ? 0 : weight / board.score(best);
}

/**
 * Adds the product's pair scores over the baskets it is in (the middle of its count's level, so the
 * answer reads its level stamp, not every sale) to `board`, flagged PAIRED: a conditional rate, so
 * a cart product whose partners come with it in a large share of its baskets weighs more than one
 * whose partners are chance companions. (Relative to the row's best instead, as one product's
 * answer takes it, every cart product weighs alike: on Online Retail's test carts in process, the
 * pairs alone 0.2739 against 0.2812 by time and 0.2963 against 0.3162 at random, beside EASE at
 * the same weights 0.3001 against 0.3012 and 0.3260 against 0.3302; docs/models.md, Carts.)
 */
function addConditionalPairRow(engine: CartTogetherInputs, product: number, board: ScoreBoard, now: number): void {
  const baskets = engine.baskets;
  const size = baskets.pairs.size(product);
  scoreRow(engine, product, now); // its factor, relative to the row's best, is one product's answer's
  if (size === 0) return;
  engine.scratch.reads.read(baskets.levelStamps, product);
  board.addRow(baskets.pairs.ids, baskets.pairs.start(product), engine.scratch.rowScores(size), 0, size, 1 / levelGroups(baskets.levelOf(product)), PAIRED);
}

/** What the strategy reads of the shop's models: bought-together's, and the EASE fit. */
export type CartTogetherInputs = BoughtTogetherInputs & Pick<ShopEngine, 'ease'>;

export const cartTogether: Producer<CartTogetherInputs> = ({ engine, cart, now }, pick) => {
  if (cart === undefined) return;
  const { board, easeBoard, contentBoard, top, reads } = engine.scratch;
  reads.read(engine.storeStamps, SETTINGS_PART);
  reads.read(engine.storeStamps, EASE_PART);
  const { easeWeight, pairWeight, contentWeight } = engine.ease.cartBlend;
  for (const product of cart) {
    addConditionalPairRow(engine, product, board, now);
    if (easeWeight > 0) engine.ease.spread(easeBoard, product, 1);
    if (contentWeight > 0) addContentNeighbors(engine, product, contentBoard, 1, CART_CONTENT_NEIGHBORS);
  }
  const pairBest = bestOutside(board, cart);
  // The pair part is relative to its best candidate, whose discount (its level) sets that scale.
  if (pairBest >= 0) reads.read(engine.baskets.levelStamps, pairBest);
  const pairScale = partScale(board, pairBest, pairWeight);
  const easeScale = partScale(easeBoard, bestOutside(easeBoard, cart), easeWeight);
  const contentScale = partScale(contentBoard, bestOutside(contentBoard, cart), contentWeight);

  const baskets = engine.baskets;
  const discounts = discountsOf(CART_POPULARITY_EXPONENT);
  top.reset(pick.remaining);
  // Each candidate once: those with a pair, then EASE's others, then content's others. The heap's
  // cheap test goes before the pick list's lookups: most of a cart's candidates cannot enter.
  for (let i = 0; i < board.touchedCount; i++) {
    const id = board.touchedAt(i);
    const parts = board.score(id) * pairScale + easeBoard.score(id) * easeScale + contentBoard.score(id) * contentScale;
    // EASE's negative weights can leave a candidate at or below 0: the backfill does better than those.
    if (parts <= 0) continue;
    const score = parts / discounts[baskets.levelOf(id)]!;
    if (top.admits(id, score) && pick.accepts(id)) top.offer(id, score);
  }
  for (let i = 0; i < easeBoard.touchedCount; i++) {
    const id = easeBoard.touchedAt(i);
    if (board.flags(id) !== 0) continue;
    const parts = easeBoard.score(id) * easeScale + contentBoard.score(id) * contentScale;
    if (parts <= 0) continue;
    const score = parts / discounts[baskets.levelOf(id)]!;
    if (top.admits(id, score) && pick.accepts(id)) top.offer(id, score);
  }
  for (let i = 0; i < contentBoard.touchedCount; i++) {
    const id = contentBoard.touchedAt(i);
    if (board.flags(id) !== 0 || easeBoard.flags(id) !== 0) continue;
    const parts = contentBoard.score(id) * contentScale;
    if (parts <= 0) continue;
    const score = parts / discounts[baskets.levelOf(id)]!;
    if (top.admits(id, score) && pick.accepts(id)) top.offer(id, score);
  }
  const count = top.sort();
  for (let r = 0; r < count; r++) {
    const id = top.idAt(r);
    reads.read(engine.baskets.levelStamps, id); // its discount (its pairs are in the rows read above)
    const behavioural = (board.flags(id) & PAIRED) !== 0 || (easeBoard.score(id) > 0 && easeScale > 0);
    if (behavioural) pick.offer(id, top.scoreAt(r), 'bought-together');
    else pick.offer(id, top.scoreAt(r), 'similar', 0);
  }
  board.clear();
  easeBoard.clear();
  contentBoard.clear();
};
