// The JSON bodies the REST routes answer with, as types: the OpenAPI document's response schemas
// are generated from them (http/openapi/), and tests check real answers against them. Those the
// browser bundles read too live in files of their own that import no code (recommendation-response.ts,
// stats-answer.ts, experiment-view.ts, rule-view.ts), re-exported here.
import type { tags } from 'typia';
import type { ProductCard, ProductGid } from './recommendation-response.js';
import type { GroupBy } from './stats-answer.js';

export type * from './recommendation-response.js';
export type * from './experiment-view.js';

/** GET /api/products/{id}: every stored field of a catalog product. */
export interface CatalogProduct extends ProductCard {
  productType: string | null;
  tags: readonly string[];
  /** Bare collection ids. */
  collections: readonly string[];
  available: boolean;
  repurchasable: boolean;
  /** The merchant's own attributes (empty when none). */
  attributes: Record<string, string | number>;
  updatedAt: string & tags.Format<'date-time'>;
}

/** PUT /api/products. */
export interface ProductsUpserted {
  success: true;
  upserted: number & tags.Type<'uint32'>;
  /** Products left as they were because the stored one changed later (sourceUpdatedAt); absent when none. */
  olderIgnored?: number & tags.Type<'uint32'>;
  /** Where the shop's log stood after this write: `after=` with it reads the write from any server process. */
  position: string;
}

/** DELETE /api/products/{id}: `deleted` is the id as the path gave it. */
export interface ProductDeleted {
  success: true;
  deleted: string;
  /** As ProductsUpserted's. */
  position: string;
}

/** GET /healthz. */
export interface Health {
  /** `degraded`: the node answers reads from its copy of the log but cannot take writes now (see `problems`). */
  status: 'ok' | 'degraded';
  /** What keeps the node from taking writes (with a replicated log: no connection to NATS, no quorum); absent when ok. */
  problems?: string[];
  /** The server process that answered (one of several behind one port). */
  pid: number & tags.Type<'uint32'>;
  /** Shops whose log this process applies. */
  shops: number & tags.Type<'uint32'>;
  /** Log positions written (by any process) that this process has not applied yet, all shops together; per shop in /metrics. */
  behind: number & tags.Type<'uint32'>;
}

/** GET /api/products: one page of the catalog in product-id order. */
export interface CatalogPage {
  products: CatalogProduct[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

/** GET /api/products query parameters. */
export interface CatalogPageParams {
  /** The `nextCursor` of the page before; absent for the first page. */
  cursor?: string;
  /** Products per page, 1-250 (default 50). */
  limit?: number & tags.Type<'uint32'> & tags.Minimum<1> & tags.Maximum<250> & tags.Default<50>;
}

/** GET /api/shop: the key's shop, what it holds and the settings it runs with (no secrets). */
export interface ShopInfo {
  shopId: string;
  createdAt: string & tags.Format<'date-time'>;
  demo: boolean;
  counts: {
    products: number;
    collections: number;
    events: number;
    /** Customers and sessions with state in memory. */
    shoppers: number;
    customers: number;
    sessions: number;
    pendingEvents: number;
    keys: { public: number; secret: number };
  };
  settings: {
    allowedOrigins: string[];
    /** Customer-token signing secrets the shop accepts (0-2). */
    customerTokenSecrets: number;
    appProxy: boolean;
    /** The registered widget ids (PUT /api/shop/widgets): attribution names these for good. */
    widgets: string[];
    /** The ISO 4217 code of the shop's prices (PUT /api/shop/currency); null: not set. */
    currency: string | null;
    /** The shop's recency setting (PUT /api/shop/recency). */
    recency: 'auto' | 'off';
    /** What its answers apply: `off` when its setting or the service's (PAIRWISE_RECENCY) is off. */
    effective: 'auto' | 'off';
    eventWeights: Record<string, number>;
    trendingHalfLifeHours: number;
    /** Customers kept in memory, in a pool of their own (PAIRWISE_MAX_CUSTOMERS). */
    maxCustomers: number;
    /** Sessions kept in memory, in a pool of their own (PAIRWISE_MAX_SESSIONS). */
    maxSessions: number;
    maxPendingEvents: number;
  };
}

/** Settings personalized runs with (the blend each answer reads, and the λ of the EASE fit it reads). */
export interface ModelSettings {
  /** Each candidate × its momentum (recent purchases over orders ever) to this power; 0: off. */
  momentumExponent: number;
  /** Weight of the real-time (shopper and basket similarity) score next to EASE's. */
  realTimeWeight: number;
  /** A history item's weight through EASE: the shopper's relative affinity to it to this power. */
  historyExponent: number;
  /** EASE's L2 weight. */
  lambda: number;
}

/** How the shop's settings were chosen: validated on its own newest purchases, held out, at its latest refit. */
export interface ModelTuning {
  /**
   * tuned: the best setting led the default by more than `margin` standard errors; default-best: none
   * scored above the default; within-noise: one did, by less; too-little-data: too few shoppers to hold out.
   */
  decision: 'tuned' | 'default-best' | 'within-noise' | 'too-little-data';
  /** Shoppers whose purchases among the shop's newest were held out and predicted from the rest of their history. */
  shoppers: number;
  /** nDCG@10 on those purchases (null: not measured). */
  scores: { chosen: number | null; default: number | null; best: number | null; popularity: number | null };
  /** The best setting tried (installed only when it beat the default by the margin). */
  best: ModelSettings;
  /** Standard error of the per-shopper difference best − default. */
  standardError: number;
  margin: number;
  settingsTried: number;
  lambdasTried: number[];
  /** Time the validation took in the refit's thread, and its largest allocation (the n×n Gram matrix). */
  seconds: number;
  peakBytes: number;
}

/** How bought-together weighs a cart's parts (docs/api.md, "Carts"), each relative to its best candidate. */
export interface CartSettings {
  easeWeight: number;
  pairWeight: number;
  contentWeight: number;
}

/** How the cart blend was chosen: on the shop's whole orders held out at its latest refit, at the chosen λ. */
export interface CartModelTuning {
  decision: 'tuned' | 'default-best' | 'within-noise' | 'too-little-data';
  /** Held-out orders (three products or more), each a cart of up to five of them and the rest to find. */
  carts: number;
  /** nDCG@10 on the rest of those orders, content left out (null: not measured). */
  scores: { chosen: number | null; default: number | null; best: number | null; easeAlone: number | null; pairsAlone: number | null };
  best: CartSettings;
  standardError: number;
  margin: number;
  seconds: number;
}

/** GET /api/shop/model: what personalized runs with and why. */
export interface ShopModel {
  shopId: string;
  /** Products in the installed EASE fit (0: none yet; personalized then uses the real-time model alone). */
  fitProducts: number;
  /** What personalized uses now. */
  settings: ModelSettings;
  /** The service's defaults (what a shop runs with before, or without, tuning). */
  defaults: ModelSettings;
  /** Null until a refit tuned the shop (or when tuning is off: PAIRWISE_TUNING_BUDGET_SECONDS=0). */
  tuning: ModelTuning | null;
  /** What bought-together weighs a cart with, the defaults, and how the shop chose (null: untuned, or no time left for it). */
  cart: { settings: CartSettings; defaults: CartSettings; tuning: CartModelTuning | null };
}

/** GET /api/stats query parameters. */
export interface StatsParams {
  /** First UTC day, inclusive (default: 29 days before `to`). */
  from?: string & tags.Format<'date'>;
  /** Last UTC day, inclusive (default: today); at most 400 days after `from`. */
  to?: string & tags.Format<'date'>;
  groupBy?: GroupBy & tags.Default<'strategy'>;
}

/** One stored event of a customer, as GET /api/customers/{id} exports it. */
export interface CustomerEventView {
  /** Its log position. */
  position: number & tags.Type<'uint64'>;
  eventId: string;
  type: string;
  productId: string;
  sessionId: string;
  customerId: string;
  widgetId?: string;
  recId?: string;
  metadata?: Record<string, unknown>;
  messageId?: string;
  timestamp: string & tags.Format<'date-time'>;
}

/** GET /api/customers/{id}: what is stored about a customer (all empty for one the shop never saw). */
export interface CustomerExport {
  customerId: string;
  /** A page of their events, oldest first. */
  events: CustomerEventView[];
  /** The next page's cursor; null on the last page. */
  nextCursor: string | null;
  /** What this server's models hold for them now (a customer whose state was evicted from memory shows none). */
  models: {
    recentlyViewed: { productId: string; viewedAt: string & tags.Format<'date-time'> }[];
    /** Products their personal recommendations draw on, strongest first. */
    affinities: string[];
    purchases: string[];
    dismissed: string[];
  };
}

/** DELETE /api/customers/{id}. */
export interface CustomerErased {
  success: true;
  erased: string;
  /** Events removed from the log. */
  events: number & tags.Type<'uint32'>;
  /** As ProductsUpserted's: `after=` with it reads from any server process with the erasure applied. */
  position: string;
}

/** GET /api/customers/{id} query parameters. */
export interface CustomerEventsParams {
  /** The `nextCursor` of the page before; absent for the first page. */
  cursor?: string;
  /** Events per page, 1-1000 (default 500). */
  limit?: number & tags.Type<'uint32'> & tags.Minimum<1> & tags.Maximum<1000> & tags.Default<500>;
}

/** DELETE /api/shop. */
export interface ShopErased {
  success: true;
  erased: string;
}

/** DELETE /api/shop query parameters. */
export interface ShopErasureParams {
  /** The shop's id, as GET /api/shop gives it: the erasure of everything it holds is meant. */
  confirm: string;
}
