// similar: products viewed in the same sessions as the context product (behaviour) blended with
// products like it by content (vendor, type, collections, tags, title words, price band).
// score = coViewJaccard + 0.2 · contentCosine: behaviour leads where it exists, content fills in
// and covers brand-new products with no events at all.
// A cart's products (two or more) have their rows summed on one board.
// Work per answer: per context product its co-view row (≤ 2K) and its kept content neighbours (≤ 50) on a score board.
import { addContentNeighbors, rankBoard } from './board-candidates.js';
import type { PickList } from '../pick-list.js';
import type { ShopEngine } from '../shop-engine.js';
import type { Producer, StrategyContext } from './context.js';

/** Weight of content similarity next to co-view similarity. */
const CONTENT_WEIGHT = 0.2;
/** Score-board flag of candidates with a behavioural signal. */
const BEHAVIOURAL = 2;

/** What the strategy reads of the shop's models. */
export type SimilarInputs = Pick<ShopEngine, 'coViews' | 'scratch' | 'content' | 'compareIds'>;

export const similar: Producer<SimilarInputs> = (context, pick) => similarWith(context, pick, CONTENT_WEIGHT);

/**
 * similar by co-views alone: a cart's bought-together backfill, after cart-together offered every
 * content neighbour of the cart's products already (its content part), adds the co-viewed ones.
 */
export const coViewed: Producer<SimilarInputs> = (context, pick) => similarWith(context, pick, 0);

function similarWith({ engine, product, cart }: StrategyContext<SimilarInputs>, pick: PickList, contentWeight: number): void {
  if (product === undefined && cart === undefined) return;
  const { board, top } = engine.scratch;
  const coViews = engine.coViews;
  const reads = engine.scratch.reads;
  // A cart's rows are summed: a product like several of the cart's products adds up.
  for (const context of cart ?? [product!]) {
    const pairs = coViews.pairs;
    const start = pairs.start(context);
    const weightStart = pairs.weightStart(context);
    for (let k = 0; k < pairs.size(context); k++) {
      const id = pairs.ids[start + k]!;
      board.add(id, coViews.jaccard(context, pairs.weights[weightStart + k]!, id), BEHAVIOURAL);
    }
    if (contentWeight > 0) addContentNeighbors(engine, context, board, contentWeight);
    reads.read(coViews.stamps, context);
  }
  const count = rankBoard(board, pick, top);
  // Content alone is catalog knowledge, not behaviour: such items answer at model level 0.
  for (let r = 0; r < count; r++) {
    const id = top.idAt(r);
    reads.read(coViews.stamps, id);
    pick.offer(id, top.scoreAt(r), 'similar', (board.flags(id) & BEHAVIOURAL) !== 0 ? 2 : 0);
  }
  board.clear();
}
