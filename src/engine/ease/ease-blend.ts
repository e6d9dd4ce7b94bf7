// The settings of personalized's blend of EASE and the real-time model, and of bought-together's over
// a cart (ease-model.ts holds them, tuning/ chooses them per shop).

/**
 * How personalized blends EASE with the real-time model. Defaults tuned on bench:quality's three
 * validation splits (mean nDCG@10 over real-time weight 0, 0.1, 0.2, 0.5 × history exponent 0,
 * 0.25 × momentum exponent 0, 0.25, 0.5, 0.75, 1): 0.1617 at weight 0.1, exponent 0, momentum 1,
 * against 0.1313 with no momentum (0.1421 at 0.25, 0.1504 at 0.5, 0.1596 at 0.75). Without
 * momentum the history exponent won on validation (0.1335 at 0.25) and lost on the test period;
 * with it, exponent 0 (every history item alike, as EASE is fitted) wins on validation too.
 * The momentum exponent's default is 0.5, not the 1 those time-ordered splits chose: through the
 * API, 1 scores 0.149 on Online Retail split by time and 0.107 on its orders split at random
 * across the year (where recent sales do not predict the test), 0.5 scores 0.132 and 0.123. A
 * shop whose own newest purchases show that more momentum helps by more than the validation noise
 * gets it from its tuning (engine/tuning/).
 */
export interface EaseBlend {
  /** Weight of the real-time score next to EASE's, each relative to its best candidate. */
  realTimeWeight: number;
  /** A history item's weight through B: relative affinity to this power (0: every item alike, as EASE is fitted). */
  historyExponent: number;
  /**
   * Every candidate's score, with or without a fit, × its momentum (engine/momentum.ts) to this
   * power, clipped: the recent sales rate over the long-run one. 0: off (as with recency off).
   */
  momentumExponent: number;
}

/**
 * How bought-together scores a cart (two products or more): three parts, each summed over the
 * cart's products and taken relative to its best candidate, then weighted and added. EASE's x·B
 * (x the cart: a product that goes with several of its products adds up), the basket pair rows
 * scored as the single-product answer scores them, each over its product's basket count (what is
 * bought now counts as it counts there, and a product whose partners come with it in a large
 * share of its baskets weighs more), and the cosine of each cart product's closest content
 * neighbours.
 */
export interface CartBlend {
  easeWeight: number;
  pairWeight: number;
  contentWeight: number;
}

/**
 * β of the best-seller discount on a cart candidate's blended score: ÷ n^β, n its basket count at
 * its level (as the single-product pair scores take it, so an answer reads the level stamps of the
 * products it returns, not every sale of them). Each part, relative to its best, favours the
 * products most baskets hold (the pairs' own discount is β 0.1; EASE has none). On Online Retail's
 * validation carts carved from the training orders (the last 15 % of them by time), over EASE x·B
 * beside the pair rows (then each relative to its best) at ½: β 0 0.3136, 0.1 0.3232, 0.15 0.3268,
 * 0.2 0.3291, 0.25 0.3296, 0.3 0.3285; 0.2, the plateau's near edge (docs/models.md, Carts).
 */
export const CART_POPULARITY_EXPONENT = 0.2;
