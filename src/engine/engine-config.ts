// The engine's settings: what every model reads, with the defaults tuned on the offline evaluation.
// The service's configuration (config.ts) overrides some of them from the environment; the engine
// owns the type, so it depends on nothing outside itself.
import type { EventType } from './event.js';

const DAY_MS = 86_400_000;

/**
 * Whether time-based priors apply (momentum, decayed basket pair weights, the decay of a shopper's
 * history): 'auto' lets the engine decide (today: they apply), 'off' turns all of them off.
 */
export type Recency = 'auto' | 'off';

export interface EngineConfig {
  /** Weight each event type adds to popularity and affinity; dismiss suppresses instead. */
  eventWeights: Readonly<Record<EventType, number>>;
  /** Half-life of trending scores, in ms. */
  trendingHalfLifeMs: number;
  /** Half-life of the popularity behind collection-popular, in ms. */
  popularityHalfLifeMs: number;
  /** Ids kept in each maintained top list (trending, each collection). */
  topListSize: number;
  /** Half-life of a shopper's affinity to a product, in ms. */
  affinityHalfLifeMs: number;
  /** Products remembered per shopper for personalization (at most 255). */
  historyPerShopper: number;
  /** Purchases remembered per shopper, never recommended back to them unless repurchasable. */
  purchasesPerShopper: number;
  /** A shopper's newest products that each new product pairs with (the shopper similarity behind personalized). */
  pairingWindow: number;
  /**
   * Neighbours kept per product in the basket model behind bought-together (at most 127; rows buffer
   * twice as many). Nearly every product asked about fills its row, so pruning decides what stays:
   * 96 scores 0.0024 above 64 on bench:quality's validation splits (0.0017 on test), at 1.5× the
   * basket rows' bound.
   */
  maxNeighbors: number;
  /**
   * Neighbours kept per product in the co-view model behind similar (at most 127). Co-views are the
   * most numerous pairs (each view pairs with the session's last 20), so this row size decides most
   * of the models' memory: 32 (rows of up to 64) holds a product's strongest co-views for an answer
   * of 8-50 items at half the memory of 64, and the rows fill up sooner as the store grows.
   */
  coViewNeighbors: number;
  /**
   * Neighbours kept per product in the shopper-history model behind personalized (at most 127). Fewer
   * than maxNeighbors: personalized reads one row per affinity (up to 50), and 16 score as well as 64
   * on the Online Retail protocol (nDCG@10 0.0960 vs 0.0963) at a third of the work per answer.
   */
  shopperNeighbors: number;
  /** Half-life of basket pair weights (bought-together), in ms; chosen with pairFloor on validation splits (docs/models.md). */
  pairHalfLifeMs: number;
  /**
   * The share of a basket pair's all-time count that its weight keeps however old (bought-together
   * scores the decayed count plus this share of the undecayed one): a short half-life follows this
   * month's pairs without forgetting the pairs of last season. Chosen with pairHalfLifeMs on
   * validation splits (docs/models.md).
   */
  pairFloor: number;
  /**
   * A bought-together row's best pair counts as at least a pair seen in this many baskets today
   * (0: the best is the best, however weak). Partners are scored relative to the best; a product
   * whose best pair is weaker than this has partners that are not certain, so they score below 1
   * and its content neighbours weigh more beside them. Chosen on validation splits (docs/models.md).
   */
  pairConfidenceBaskets: number;
  /**
   * What two products added to one session's cart count as a pair, next to 1 for two bought in one
   * order (bought-together): a cart is a weaker sign than an order (most carts are abandoned), and a
   * pair both carted and bought counts both.
   */
  cartPairWeight: number;
  /**
   * Bought-together's best-seller discount: a candidate's pair score is divided by n^this, n the
   * baskets it is in (0: raw pair strength; 1: the pair's share of the candidate's baskets). A
   * best-seller sits in many baskets by chance, but it is also what a basket most often holds: on
   * validation splits of Online Retail (by time and at random) 0 scores 0.001-0.002 more nDCG@10
   * than 0.1 at 5-6 % less catalog coverage, 0.3 scores 0.006 less (docs/models.md).
   */
  pairPopularityExponent: number;
  /**
   * Weight of a content neighbour's cosine (0-1) beside bought-together's relative pair scores
   * (the best pair scores 1): among partners of similar strength the one like the context product
   * comes first, and a weak or sparse row gets like products. Chosen on validation splits (docs/models.md).
   */
  pairContentWeight: number;
  /**
   * Logged-in customers whose histories and dismissals are kept per shop; the least recently active
   * customer goes first, and only for a new customer: sessions have a pool of their own.
   */
  maxCustomers: number;
  /**
   * Anonymous sessions kept per shop, in a pool of their own: a flood of new sessionIds (anyone
   * with the public key can send them) evicts only sessions, never a customer.
   */
  maxSessions: number;
  /** Open baskets (orders, carts) kept per shop for pairing; the least recently added-to go first. */
  maxBaskets: number;
  /**
   * Events kept for product ids the catalog has never had, all such ids together (the least
   * recently named id goes first): applied when the product is added. Anyone with the public key
   * can name any id, so this bound is all the memory invented ids can take. 0: such events never count.
   */
  maxPendingEvents: number;
  /** Of those, the newest kept per product id (1-65,535). */
  pendingPerProduct: number;
  /** Products kept per shopper in the recently-viewed history (at most 255). */
  recentViewsPerShopper: number;
  /** How long a dismissal hides a product from that shopper, in ms. */
  dismissTtlMs: number;
  /** Platform segment of output gids when a product was given as a bare id. */
  gidPlatform: string;
  /** How long after a click on a recommended product an add_to_cart or purchase of it counts for the recommendation, in ms. */
  attributionWindowMs: number;
  /**
   * Every shop's recency (PAIRWISE_RECENCY): 'off' turns the time-based priors off for every shop
   * whatever its own setting; 'auto' leaves each shop's setting (PUT /api/shop/recency) to decide.
   * Read by answers only: the models are the same either way.
   */
  recency: Recency;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = Object.freeze({
  eventWeights: Object.freeze({ view: 1, click: 2, save: 3, add_to_cart: 4, purchase: 6, impression: 0, dismiss: 0 }),
  trendingHalfLifeMs: 2 * DAY_MS,
  popularityHalfLifeMs: 14 * DAY_MS,
  topListSize: 256,
  maxCustomers: 100_000,
  maxSessions: 100_000,
  maxBaskets: 50_000,
  maxPendingEvents: 50_000,
  pendingPerProduct: 32,
  maxNeighbors: 96,
  coViewNeighbors: 32,
  shopperNeighbors: 16,
  pairHalfLifeMs: 30 * DAY_MS,
  pairFloor: 0.1,
  pairConfidenceBaskets: 5,
  cartPairWeight: 0.5,
  pairPopularityExponent: 0.1,
  pairContentWeight: 0.2,
  affinityHalfLifeMs: 30 * DAY_MS,
  historyPerShopper: 64,
  purchasesPerShopper: 500,
  pairingWindow: 30,
  recentViewsPerShopper: 30,
  dismissTtlMs: 30 * DAY_MS,
  gidPlatform: 'shopify',
  attributionWindowMs: 7 * DAY_MS,
  recency: 'auto',
});
