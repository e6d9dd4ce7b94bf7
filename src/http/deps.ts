// What the HTTP routes may use: use cases and read models, never storage directly.
import type { Config } from '../config.js';
import type { DashboardSessions } from '../dashboard/sessions.js';
import type { DemoStorefront } from '../demo/demo-storefront.js';
import type { CatalogUpdates } from '../app/catalog-updates.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { Experiments } from '../app/experiments.js';
import type { Rules } from '../app/rules.js';
import type { ShopSettings } from '../app/shop-settings.js';
import type { ShopStatus } from '../app/shop-status.js';
import type { Stats } from '../app/stats.js';
import type { LogTail } from '../ingest/log-tail.js';
import type { PositionWaits } from '../app/position-waits.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { Answers } from '../app/answers.js';
import type { EventTracking } from '../app/track-events.js';
import type { KeyResolver, Principal } from '../app/principal.js';
import type { CustomerIdentity } from '../app/customer-identity.js';
import type { CustomerData } from '../app/customer-data.js';
import type { ShopErasure } from '../app/shop-erasure.js';
import type { RateLimits } from '../transport/rate-limits.js';
import type { DiskUsage } from '../store/disk-usage.js';
import type { StorefrontUsage } from '../store/storefront-quota.js';

/** Memory that background work holds outside the models, for /metrics. */
export interface BackgroundMemory {
  /** Bytes of the buffer snapshots are copied into, kept between snapshots (0 until the first). */
  readonly snapshotCopyBytes: number;
  /** Whether an EASE refit is under way in any server process of the data dir (its matrix, 4n² bytes, is held meanwhile). */
  readonly refitRunning: boolean;
  /** Whether this process holds the housekeeping lease (it takes the snapshots and makes the EASE fits). */
  readonly housekeeper: boolean;
}

export interface HttpDeps {
  config: Config;
  resolveKey: KeyResolver;
  /** The caller a stored key's SHA-256 names (a dashboard session's key); undefined when no such key. */
  resolveKeyHash: (hash: string) => Principal | undefined;
  /** Which customer a public-key request may act as (customer tokens, app-proxy signatures). */
  identity: CustomerIdentity;
  /** Rate limits of every authenticated route (and the WebSocket channel). */
  limits: RateLimits;
  engines: ShopEngines;
  answers: Answers;
  /** POST /api/events and /batch (and the stream's event ops). */
  events: EventTracking;
  pipeline: EventPipeline;
  /** A write's log position as its acknowledgement carries it (`after=` with it reads the write anywhere). */
  positionToken: (position: number) => string;
  catalog: CatalogUpdates;
  /** Reads that wait for a write's position (after=). */
  positions: PositionWaits;
  /** What other processes wrote, followed (lag for /healthz and /metrics). */
  tail: LogTail;
  /** What a shop is and holds (GET /api/shop, /api/shop/model, /metrics, the dashboard). */
  shops: ShopStatus;
  /** Signed-in dashboard sessions (/dashboard). */
  dashboardSessions: DashboardSessions;
  /** Epoch ms; tests may pin it. */
  clock: () => number;
  /** Customers' data exported and erased (the /api/customers routes). */
  customers: CustomerData;
  /** DELETE /api/shop. */
  shopErasure: ShopErasure;
  /** A/B experiments on placements (the /api/experiments routes). */
  experiments: Experiments;
  /** The merchant's rules (the /api/rules routes). */
  rules: Rules;
  /** The shop's settings: widget ids, recency, currency (PUT /api/shop/…). */
  settings: ShopSettings;
  /** What recommendations earned (GET /api/stats, the dashboard). */
  stats: Stats;
  /** The demo storefront's pages (/demo), when the demo store is on. */
  demo?: DemoStorefront;
  background: BackgroundMemory;
  /** What the shop's public key stored today against its storefront budget (every server process together), for /metrics and the dashboard. */
  storefrontUsage: (shopId: string) => StorefrontUsage;
  /** What the data dir takes on disk (store/disk-usage.ts), for /metrics. */
  disk: () => DiskUsage;
  /** What keeps the log from taking writes now (a replicated log without NATS or quorum), for /healthz; empty: nothing. */
  logProblems: () => string[];
}
