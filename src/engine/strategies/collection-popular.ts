// collection-popular: decayed popularity among the members of the requested collection, or of the
// context product's collections when it backfills a product request.
import type { TopList } from '../top-list.js';
import { offerRanked } from '../ranked.js';
import type { Producer } from './context.js';

export const collectionPopular: Producer = ({ engine, product, collectionId, now }, pick) => {
  const collections = collectionId !== undefined ? [collectionId] : product !== undefined ? (engine.catalog.product(product)?.collections ?? []) : [];
  const tops: TopList[] = [];
  const members: (readonly number[])[] = [];
  for (const c of collections) {
    const ordered = engine.catalog.orderedMembers(c);
    if (ordered.length === 0) continue;
    members.push(ordered);
    const top = engine.collectionTop(c);
    if (top !== undefined) tops.push(top);
  }
  if (members.length === 0) return;
  const scope = () => (members.length === 1 ? members[0]! : [...new Set(members.flat())].sort(engine.compareIds));
  offerRanked(pick, 'collection-popular', engine.popularity, now, tops, scope, engine.compareIds);
};
