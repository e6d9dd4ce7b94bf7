// What the HTTP routes may use: the use cases and read models of app/, never the models or the
// storage directly (test/layers.test.ts keeps it so).
import type { Answers } from '../app/answers.js';
import type { CatalogUpdates } from '../app/catalog-updates.js';
import type { CustomerData } from '../app/customer-data.js';
import type { CustomerIdentity } from '../app/customer-identity.js';
import type { Experiments } from '../app/experiments.js';
import type { Integrations } from '../app/integrations.js';
import type { NodeStatus } from '../app/node-status.js';
import type { PositionWaits } from '../app/position-waits.js';
import type { KeyResolver, Principal } from '../app/principal.js';
import type { Rules } from '../app/rules.js';
import type { ShopErasure } from '../app/shop-erasure.js';
import type { ShopSettings } from '../app/shop-settings.js';
import type { ShopStatus } from '../app/shop-status.js';
import type { Stats } from '../app/stats.js';
import type { EventTracking } from '../app/track-events.js';
import type { Config } from '../config.js';
import type { DashboardSessions } from '../dashboard/sessions.js';
import type { DemoStorefront } from '../demo/demo-storefront.js';
import type { RateLimits } from '../transport/rate-limits.js';
import type { NodeMetrics } from '../app/node-metrics.js';
import type { Telemetry } from '../transport/telemetry.js';
import type { TrustedProxies } from '../limits/trusted-proxies.js';

export interface HttpDeps {
  config: Config;
  resolveKey: KeyResolver;
  /** The caller a stored key's SHA-256 names (a dashboard session's key); undefined when no such key. */
  resolveKeyHash: (hash: string) => Principal | undefined;
  /** Which customer a public-key request may act as (customer tokens, app-proxy signatures). */
  identity: CustomerIdentity;
  /** Rate limits of every authenticated route (and the WebSocket channel). */
  limits: RateLimits;
  answers: Answers;
  /** POST /api/events and /batch (and the stream's event ops). */
  events: EventTracking;
  /** A write's log position as its acknowledgement carries it (`after=` with it reads the write anywhere). */
  positionToken: (position: number) => string;
  catalog: CatalogUpdates;
  /** Reads that wait for a write's position (after=). */
  positions: PositionWaits;
  /** What a shop is and holds (GET /api/shop, /api/shop/model, /metrics, the dashboard). */
  shops: ShopStatus;
  /** How this process and its data dir are doing (/healthz, /metrics). */
  node: NodeStatus;
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
  /** The shop's platform connections and their webhooks, and its scheduled feed (/api/integrations/…, /webhooks/…). */
  integrations: Integrations;
  /** The demo storefront's pages (/demo), when the demo store is on. */
  demo?: DemoStorefront;
  /** GET /metrics: the node's metrics (every server process's). */
  metrics: NodeMetrics;
  /** Every route's answers counted, a 5xx logged with its request id, the access log (the server binds one observer per route at start). */
  telemetry: Telemetry;
  /** PAIRWISE_TRUSTED_PROXIES, whose X-Request-Id is kept; undefined when none. */
  proxies: TrustedProxies | undefined;
}

