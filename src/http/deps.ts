// What the HTTP routes may use: use cases and read models, never storage directly.
import type { Config } from '../config.js';
import type { DemoStorefront } from '../demo/demo-storefront.js';
import type { CatalogUpdates } from '../ingest/catalog-updates.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { Experiments } from '../ingest/experiments.js';
import type { ShopEngines } from '../ingest/shop-engines.js';
import type { Answers } from './answers.js';
import type { KeyResolver } from './auth.js';
import type { CustomerIdentity } from './customer-identity.js';
import type { RateLimits } from './rate-limits.js';

export interface HttpDeps {
  config: Config;
  resolveKey: KeyResolver;
  /** Which customer a public-key request may act as (customer tokens, app-proxy signatures). */
  identity: CustomerIdentity;
  /** Rate limits of every authenticated route (and the WebSocket channel). */
  limits: RateLimits;
  engines: ShopEngines;
  answers: Answers;
  pipeline: EventPipeline;
  catalog: CatalogUpdates;
  /** Epoch ms; tests may pin it. */
  clock: () => number;
  /** A/B experiments on placements (the /api/experiments routes; none: the routes are absent). */
  experiments?: Experiments;
  /** The demo storefront's pages (/demo), when the demo store is on. */
  demo?: DemoStorefront;
}
