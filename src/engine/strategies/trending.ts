// trending: the store's products by time-decayed, type-weighted event counts.
import { offerRanked } from '../ranked.js';
import type { Producer } from './context.js';

export const trending: Producer = ({ engine, now }, pick) => {
  offerRanked(pick, 'trending', engine.trending, now, [engine.trendingTop], () => engine.catalog.ordered(), engine.compareIds);
};
