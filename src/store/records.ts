// The records the databases hold beside the log (store/database.ts opens them): shops, keys, dedup
// rows, snapshots, leases, the storefront's daily counts, the follower's write outcomes and
// dashboard sessions. Types only, imported by the modules that write them and by database.ts.
import type { Recency } from '../engine/engine-config.js';
import type { FeedSettings } from './feed-settings.js';
import type { WebhookConnection } from './webhook-connection.js';
import type { EngineSnapshot } from '../engine/shop-engine.js';

export type KeyKind = 'public' | 'secret';

export interface ShopRecord {
  createdAt: number;
  /** Origins allowed to call the storefront routes from a browser; empty = any origin. */
  allowedOrigins: string[];
  demo?: boolean;
  /** Customer-token signing secrets, newest first; at most two are kept. */
  signingSecrets?: string[];
  /** The shared secret of the shop's Shopify app proxy (its signed requests prove the customer). */
  appProxySecret?: string;
  /** The merchant's widget ids (PUT /api/shop/widgets): attribution names them for good (engine/attribution/widget-names.ts). */
  widgets?: string[];
  /** Whether time-based priors shape the shop's answers (PUT /api/shop/recency); absent: 'auto'. */
  recency?: Recency;
  /** The ISO 4217 code of the shop's prices (PUT /api/shop/currency); absent: not set. */
  currency?: string;
  /** The shop's Shopify store (PUT /api/integrations/shopify): its webhooks' domain and signing secrets. */
  shopify?: WebhookConnection;
  /** The shop's WooCommerce store (PUT /api/integrations/woocommerce). */
  woocommerce?: WebhookConnection;
  /** The shop's scheduled product feed (PUT /api/integrations/feed). */
  feed?: FeedSettings;
}

export interface ApiKeyRecord {
  shopId: string;
  kind: KeyKind;
  createdAt: number;
  label?: string;
}

export interface DedupRecord {
  eventId: string;
  /** When it was received (epoch ms): a repeat counts as one within the dedup window after it. */
  at: number;
  /** Kept, and a repeat counted as one, until then instead (a platform's order line: see shop-log.ts). */
  until?: number;
}

export interface SnapshotRecord {
  /**
   * The shop's log position the models stand for: every event at or before it is in them, none
   * after it. Replay resumes after it. (Snapshots written before log positions existed have
   * `lastEventId` instead and are ignored: see SnapshotStore.get.)
   */
  position: number;
  takenAt: number;
  state: EngineSnapshot;
}

export interface LeaseRecord {
  /** The process holding it (pid and a random tag of its start). */
  holder: string;
  /** Epoch ms it runs out, unless renewed. */
  until: number;
}

/** What a shop's public key stored on `day` (days since the epoch, UTC). */
export interface StorefrontUsage {
  day: number;
  events: number;
  bytes: number;
}

/**
 * What materializing a message stored, kept for the writer (by the message id it published with):
 * an append's first position and its repeats (or the storefront budget's refusal), a change's position (0: the command changed nothing),
 * the rows an erasure removed. `at`: when it was materialized (epoch ms), for pruning.
 */
export type WriteOutcome =
  | { seq: number; at: number; first: number; duplicateOf: (string | null)[]; refusedUntil?: number }
  | { seq: number; at: number; position: number }
  | { seq: number; at: number; removed: number };

export interface DashboardSession {
  /** SHA-256 (hex) of the secret key signed in with: each use checks the key is still valid (not revoked). */
  keyHash: string;
  /** Echoed by the page in `x-csrf-token` on state-changing requests. */
  csrf: string;
  lastUsed: number;
}
