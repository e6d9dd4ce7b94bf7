// trending: the store's products by time-decayed, type-weighted event counts.
import { offerRanked } from '../ranked.js';
import type { Producer } from './context.js';

function* allIds(size: number): IterableIterator<number> {
  for (let id = 0; id < size; id++) yield id;
}

export const trending: Producer = ({ engine, now }, pick) => {
  offerRanked(pick, 'trending', engine.trending, now, [engine.trendingTop], () => allIds(engine.catalog.size));
};
