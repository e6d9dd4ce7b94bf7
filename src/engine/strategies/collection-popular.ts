// collection-popular: decayed popularity among the members of the requested collection, or of the
// context product's collections when it backfills a product request.
import type { TopList } from '../top-list.js';
import { offerRanked } from '../ranked.js';
import type { Producer } from './context.js';

export const collectionPopular: Producer = ({ engine, product, collectionId, now }, pick) => {
  const collections = collectionId !== undefined ? [collectionId] : product !== undefined ? (engine.catalog.product(product)?.collections ?? []) : [];
  const tops: TopList[] = [];
  const members: ReadonlySet<number>[] = [];
  for (const c of collections) {
    const set = engine.catalog.members(c);
    if (set === undefined) continue;
    members.push(set);
    const top = engine.collectionTop(c);
    if (top !== undefined) tops.push(top);
  }
  if (members.length === 0) return;
  const scope = () => (members.length === 1 ? members[0]! : new Set(members.flatMap((set) => [...set])));
  offerRanked(pick, 'collection-popular', engine.popularity, now, tops, scope);
};
