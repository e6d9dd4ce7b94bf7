// Steps shared by the strategies that score a product's pair row on the score board and blend in
// its content neighbours (similar, bought-together): the content side, and the board's accepted
// candidates ranked by a bounded heap.
import type { PickList } from '../pick-list.js';
import type { ScoreBoard } from '../score-board.js';
import type { ShopEngine } from '../shop-engine.js';
import type { TopK } from '../top-k.js';

/** What content neighbours read of the shop's models. */
export type ContentInputs = Pick<ShopEngine, 'content' | 'compareIds'>;

/** Adds `weight` × content cosine for each content neighbour kept for `product`, the best `limit` at most. */
export function addContentNeighbors(engine: ContentInputs, product: number, board: ScoreBoard, weight: number, limit = Infinity): void {
  const content = engine.content;
  const count = Math.min(limit, content.neighbors(product, engine.compareIds));
  const start = content.start(product);
  board.addRow(content.neighborIds, start, content.neighborScores, start, count, weight);
}

/** Ranks the board's candidates the pick list accepts, at most its room, best first; returns how many (read them from `top`). */
export function rankBoard(board: ScoreBoard, pick: PickList, top: TopK): number {
  top.reset(pick.remaining);
  for (let i = 0; i < board.touchedCount; i++) {
    const id = board.touchedAt(i);
    if (pick.accepts(id)) top.offer(id, board.score(id));
  }
  return top.sort();
}
