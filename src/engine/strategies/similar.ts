// similar: products viewed in the same sessions as the context product (behaviour) blended with
// products like it by content (vendor, type, collections, tags, title words, price band).
// score = coViewJaccard + 0.2 · contentCosine: behaviour leads where it exists, content fills in
// and covers brand-new products with no events at all.
// Work per answer: the product's co-view row (≤ 2K) and its kept content neighbours (≤ 50) on a score board.
import { addContentNeighbors, rankBoard } from './board-candidates.js';
import type { ShopEngine } from '../shop-engine.js';
import type { Producer } from './context.js';

/** Weight of content similarity next to co-view similarity. */
const CONTENT_WEIGHT = 0.2;
/** Score-board flag of candidates with a behavioural signal. */
const BEHAVIOURAL = 2;

/** What the strategy reads of the shop's models. */
export type SimilarInputs = Pick<ShopEngine, 'coViews' | 'scratch' | 'content' | 'compareIds'>;

export const similar: Producer<SimilarInputs> = ({ engine, product }, pick) => {
  if (product === undefined) return;
  const { board, top } = engine.scratch;
  const coViews = engine.coViews;
  const pairs = coViews.pairs;
  const start = pairs.start(product);
  const weightStart = pairs.weightStart(product);
  for (let k = 0; k < pairs.size(product); k++) {
    const id = pairs.ids[start + k]!;
    board.add(id, coViews.jaccard(product, pairs.weights[weightStart + k]!, id), BEHAVIOURAL);
  }
  addContentNeighbors(engine, product, board, CONTENT_WEIGHT);
  const count = rankBoard(board, pick, top);
  const reads = engine.scratch.reads;
  reads.read(coViews.stamps, product);
  // Content alone is catalog knowledge, not behaviour: such items answer at model level 0.
  for (let r = 0; r < count; r++) {
    const id = top.idAt(r);
    reads.read(coViews.stamps, id);
    pick.offer(id, top.scoreAt(r), 'similar', (board.flags(id) & BEHAVIOURAL) !== 0 ? 2 : 0);
  }
  board.clear();
};
