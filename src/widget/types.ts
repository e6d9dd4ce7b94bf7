// The wire shapes the widget reads and writes (README "API", "WebSocket channel"): a subset, kept
// here so the browser bundle imports nothing from the server.

export type EventType = 'impression' | 'click' | 'add_to_cart' | 'purchase' | 'dismiss' | 'save' | 'view';

export interface WireEvent {
  type: EventType;
  productId: string;
  sessionId: string;
  customerId?: string;
  /** The merchant-signed proof of customerId: without it the service counts only the session. */
  customerToken?: string;
  widgetId?: string;
  /** meta.recId of the recommendation the event came from. */
  recId?: string;
  metadata?: Record<string, unknown>;
  /** Idempotency key: every retry of this event carries the same one, so it counts once. */
  messageId: string;
}

export interface RecommendedProduct {
  id: string;
  title: string;
  handle: string;
  image: string | null;
  price: string | null;
  compareAtPrice: string | null;
  vendor: string | null;
  score: number;
  strategy: string;
  /** The merchant's rule that pinned this item (absent: ranked by the strategy). */
  ruleId?: string;
}

export interface RecommendationList {
  products: RecommendedProduct[];
  meta: { strategy: string; modelLevel: number; count: number; fallback?: boolean; recId?: string; experiment?: string; variant?: string };
}

/** GET /api/recommendations parameters as an object (also the `query` of a subscribe op). */
export type RecommendationQuery = Record<string, string | number>;

/** Bare product id of a bare id or a gid (gid://shopify/Product/123 → 123). */
export function bareId(id: string): string {
  const slash = id.lastIndexOf('/');
  return id.startsWith('gid://') && slash >= 0 ? id.slice(slash + 1) : id;
}
