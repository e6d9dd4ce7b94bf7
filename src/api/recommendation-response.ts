// What GET /api/recommendations answers (and a stream subscription pushes), as types: one definition
// for the server and the storefront widget (imported as types, bundled by esbuild). Imports only types.
import type { tags } from 'typia';
import type { ModelLevel, Strategy } from '../engine/strategy.js';

/** A product's global id, the form every output id takes: gid://<platform>/Product/<id>. */
export type ProductGid = string & tags.Pattern<'^gid://[A-Za-z0-9][A-Za-z0-9-]{0,31}/Product/[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'>;

/** The spec's "recommended product" fields a storefront needs to draw a card. */
export interface ProductCard {
  id: ProductGid;
  title: string;
  handle: string;
  image: string | null;
  /** A decimal amount such as "19.99", in the shop's currency. */
  price: string | null;
  compareAtPrice: string | null;
  vendor: string | null;
}

export interface RecommendedProduct extends ProductCard {
  /** The producing strategy's score, rounded to 6 significant digits; comparable only within one strategy. */
  score: number;
  /** The strategy that produced this item: the primary one, or one of its backfill chain (a pinned item: the primary one). */
  strategy: Strategy;
  /** Present on an item a merchant's rule pinned at its position (PUT /api/rules/{id}): that rule's id. */
  ruleId?: string;
}

export interface RecommendationMeta {
  /** The primary strategy: the one asked for, or the one chosen from the context. */
  strategy: Strategy;
  /** 0 no behavioural signal, 1 aggregate popularity, 2 item-to-item model, 3 this shopper's own history. */
  modelLevel: ModelLevel;
  count: number & tags.Type<'uint32'>;
  /** True when some items came from the backfill chain rather than the primary strategy. */
  fallback: boolean;
  /** This answer's id: sent back as the `recId` of the events it causes, it attributes them (docs/analytics.md). */
  recId: string & tags.Pattern<'^rec_'> & tags.MaxLength<64>;
  /** Inside an A/B experiment on the request's widgetId: the experiment (exp_<n>) and this shopper's variant (A, B, …). */
  experiment?: string;
  variant?: string;
  /** With a context of two products or more (productIds): how many distinct products it named, and how many of them the models knew (in the catalog, with a basket or co-view partner or a row in the EASE fit). */
  cart?: CartMeta;
  /** The request named a write's position (`after`) that this server had not applied within its wait: the answer may not reflect that write yet. */
  stale?: true;
}

export interface CartMeta {
  products: number & tags.Type<'uint32'>;
  known: number & tags.Type<'uint32'>;
}

/** GET /api/recommendations (and a WebSocket subscription's pushes, beside op and sub). */
export interface RecommendationResponse {
  products: RecommendedProduct[];
  meta: RecommendationMeta;
}
