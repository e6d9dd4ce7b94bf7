// recently-viewed: the shopper's own viewed or clicked products, newest first.
import type { Producer } from './context.js';

/** A view's score halves every week: 1 for a view right now. */
const RECENCY_HALF_LIFE_MS = 7 * 86_400_000;

export const recentlyViewed: Producer = ({ engine, shoppers, now }, pick) => {
  for (const key of shoppers) {
    const history = engine.recentViews.get(key);
    if (history === undefined || history.ids.length === 0) continue;
    for (let i = 0; i < history.ids.length; i++) {
      const score = 2 ** (-Math.max(0, now - history.times[i]!) / RECENCY_HALF_LIFE_MS);
      if (pick.offer(history.ids[i]!, score, 'recently-viewed')) return;
    }
    return; // the customer's history when there is one, else the session's
  }
};
