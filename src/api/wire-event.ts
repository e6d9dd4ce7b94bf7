// An event as POST /api/events (and the stream's event ops) take it, as a type: one definition for
// the server (api/event.ts validates it with typia) and the storefront widget, which sends it
// (imported as a type). Imports only types.
import type { tags } from 'typia';
import type { EventType } from '../engine/event.js';

export type { EventType };

type Id = string & tags.MinLength<1> & tags.MaxLength<128>;

export interface WireEvent {
  type: EventType;
  productId: string & tags.MinLength<1> & tags.MaxLength<200>;
  sessionId: Id;
  customerId?: Id | null;
  widgetId?: Id | null;
  /** Any JSON object of at most 1 KiB, both as JSON and as stored (MessagePack: 9 bytes per number with a fraction), and 8 levels deep; `orderId` groups an order. */
  metadata?: Record<string, unknown> | null;
  /** Client idempotency key: a repeat within the dedup window changes nothing. */
  messageId?: (string & tags.MinLength<1> & tags.MaxLength<64>) | null;
  /** ISO 8601 or epoch milliseconds; defaults to the server's clock. */
  timestamp?: (string & tags.MaxLength<40>) | number | null;
  /**
   * The meta.recId of the recommendation answer the event came from (engine/attribution/rec-id.ts). Stored as
   * sent; one that does not parse leaves the event unattributed (it is never refused for it).
   */
  recId?: (string & tags.MaxLength<64>) | null;
  /** Proof of customerId for a public key (see customer-token.ts); never stored. */
  customerToken?: (string & tags.MaxLength<400>) | null;
}
