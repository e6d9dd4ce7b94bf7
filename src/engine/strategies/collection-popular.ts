// collection-popular: decayed popularity among the members of the requested collection, or of the
// context product's collections when it backfills a product request.
import type { TopList } from '../top-list.js';
import { offerRanked } from '../ranked.js';
import type { ShopEngine } from '../shop-engine.js';
import type { Producer } from './context.js';

/** What the strategy reads of the shop's models. */
export type CollectionPopularInputs = Pick<ShopEngine, 'catalog' | 'collectionPart' | 'collectionStamps' | 'collectionTop' | 'compareIds' | 'popularity' | 'scratch'>;

export const collectionPopular: Producer<CollectionPopularInputs> = ({ engine, product, collectionId, now }, pick) => {
  const collections = collectionId !== undefined ? [collectionId] : product !== undefined ? (engine.catalog.product(product)?.collections ?? []) : [];
  const tops: TopList[] = [];
  const known: string[] = [];
  for (const c of collections) {
    if (engine.catalog.members(c) === undefined) continue;
    known.push(c);
    engine.scratch.reads.read(engine.collectionStamps, engine.collectionPart(c));
    const top = engine.collectionTop(c);
    if (top !== undefined) tops.push(top);
  }
  if (known.length === 0) return;
  // Members in product id order are only needed past the top lists: sorted lazily (and cached).
  const scope = {
    ordered: () => (known.length === 1 ? engine.catalog.orderedMembers(known[0]!) : [...new Set(known.flatMap((c) => engine.catalog.orderedMembers(c)))].sort(engine.compareIds)),
    has: (id: number) => known.some((c) => engine.catalog.members(c)!.has(id)),
  };
  offerRanked(pick, 'collection-popular', engine.popularity, now, tops, scope, engine.compareIds);
};
