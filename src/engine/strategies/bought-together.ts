// bought-together: the products most often in the same basket (order or cart) as the context product.
// Score = c·c/(c+3) / n^0.1 for a pair seen in c baskets, the candidate being in n baskets: counts
// shrunk toward significance (a pair seen once is mostly noise) with a mild discount for
// best-sellers that sit in every basket. On the Online Retail protocol (bench/quality) it scores
// nDCG@10 0.247, as raw counts do, and covers 62 % of the catalog instead of 51 %.
import type { Producer } from './context.js';

const SHRINK = 3;
const POPULARITY_DISCOUNT = 0.1;

export function pairScore(together: number, candidateBaskets: number): number {
  return (together * together) / (together + SHRINK) / Math.max(1, candidateBaskets) ** POPULARITY_DISCOUNT;
}

export const boughtTogether: Producer = ({ engine, product }, pick) => {
  if (product === undefined) return;
  const neighbors = engine.baskets.neighbors(product);
  if (neighbors === undefined) return;
  const scored: [number, number][] = [];
  for (const [id, together] of neighbors) scored.push([id, pairScore(together, engine.baskets.basketsOf(id))]);
  scored.sort((a, b) => b[1] - a[1] || engine.compareIds(a[0], b[0]));
  for (const [id, score] of scored) if (pick.offer(id, score, 'bought-together')) return;
};
