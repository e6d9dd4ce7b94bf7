// similar: products viewed in the same sessions as the context product (behaviour) blended with
// products like it by content (vendor, type, collections, tags, title words, price band).
// score = coViewJaccard + 0.2 · contentCosine: behaviour leads where it exists, content fills in
// and covers brand-new products with no events at all.
import type { Producer } from './context.js';

/** Weight of content similarity next to co-view similarity. */
const CONTENT_WEIGHT = 0.2;

export const similar: Producer = ({ engine, product }, pick) => {
  if (product === undefined) return;
  const scores = new Map<number, number>();
  const behavioural = new Set<number>();
  const coViewed = engine.coViews.neighbors(product);
  if (coViewed !== undefined) {
    for (const [id, together] of coViewed) {
      scores.set(id, engine.coViews.jaccard(product, together, id));
      behavioural.add(id);
    }
  }
  const content = engine.content.neighbors(product, engine.compareIds);
  if (content !== undefined) {
    for (let i = 0; i < content.ids.length; i++) {
      const id = content.ids[i]!;
      scores.set(id, (scores.get(id) ?? 0) + CONTENT_WEIGHT * content.scores[i]!);
    }
  }
  const ranked = [...scores].sort((a, b) => b[1] - a[1] || engine.compareIds(a[0], b[0]));
  // Content alone is catalog knowledge, not behaviour: such items answer at model level 0.
  for (const [id, score] of ranked) if (pick.offer(id, score, 'similar', behavioural.has(id) ? 2 : 0)) return;
};
