// recently-viewed: the shopper's own viewed or clicked products, newest first.
import type { ShopEngine } from '../shop-engine.js';
import type { Producer } from './context.js';

/** A view's score halves every week: 1 for a view right now. */
const RECENCY_HALF_LIFE_MS = 7 * 86_400_000;

/** What the strategy reads of the shop's models. */
export type RecentlyViewedInputs = Pick<ShopEngine, 'recentViews'>;

export const recentlyViewed: Producer<RecentlyViewedInputs> = ({ engine, shoppers, now }, pick) => {
  const views = engine.recentViews;
  for (const slot of shoppers) {
    const size = views.size(slot);
    if (size === 0) continue;
    const start = views.start(slot);
    for (let k = 0; k < size; k++) {
      const score = 2 ** (-Math.max(0, now - views.times[start + k]!) / RECENCY_HALF_LIFE_MS);
      if (pick.offer(views.ids[start + k]!, score, 'recently-viewed')) return;
    }
    return; // the customer's history when there is one, else the session's
  }
};
