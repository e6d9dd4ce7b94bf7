// The wire shapes the widget reads and writes (docs/api.md "API", "WebSocket channel"): the server's
// own definitions, imported as types only (esbuild bundles no server code), and a helper.
import type { RecommendationResponse } from '../api/recommendation-response.js';
import type { WireEvent as ServerWireEvent } from '../api/wire-event.js';

export type { RecommendedProduct } from '../api/recommendation-response.js';
export type { EventType } from '../api/wire-event.js';

/** What the widget sends: the server's event without its nulls (the widget leaves a field out instead), and every event carries its idempotency key, so each retry counts once. */
export type WireEvent = { [K in keyof ServerWireEvent]: Exclude<ServerWireEvent[K], null> } & { messageId: string };

/** GET /api/recommendations's answer (and a subscription's pushes). */
export type RecommendationList = RecommendationResponse;

/** GET /api/recommendations parameters as an object (also the `query` of a subscribe op). */
export type RecommendationQuery = Record<string, string | number>;

/** Bare product id of a bare id or a gid (gid://shopify/Product/123 → 123). */
export function bareId(id: string): string {
  const slash = id.lastIndexOf('/');
  return id.startsWith('gid://') && slash >= 0 ? id.slice(slash + 1) : id;
}
