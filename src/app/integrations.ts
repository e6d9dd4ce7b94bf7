// The shop's integrations as one part of the service: its connections to a Shopify or WooCommerce
// store with their webhooks, and its scheduled product feed pulled on a timer by the one process
// that pulls feeds. What the composition root builds and the HTTP routes call.
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { LogApplier } from '../ingest/log-applier.js';
import { downloadFeed, DEFAULT_DOWNLOAD_LIMITS } from '../integrations/feeds/feed-download.js';
import type { ShopRecord } from '../store/records.js';
import type { ShopLog } from '../store/shop-log.js';
import type { ShopStore } from '../store/shop-store.js';
import type { CatalogUpdates } from './catalog-updates.js';
import { FeedPulls } from './feed-pulls.js';
import { PlatformConnections } from './platform-connections.js';
import { PlatformWrites } from './platform-writes.js';
import type { ShopErasure } from './shop-erasure.js';
import { ShopifyWebhooks } from './shopify-webhooks.js';
import { WooWebhooks } from './woocommerce-webhooks.js';
import type { Log } from '../observability/log.js';

/** How often due feeds are looked for. */
const FEED_CHECK_MS = 60_000;

export interface IntegrationsDeps {
  shops: ShopStore;
  log: ShopLog;
  applier: LogApplier;
  pipeline: EventPipeline;
  catalog: CatalogUpdates;
  shopErasure: ShopErasure;
  gidPlatform: string;
  /** Feeds may be fetched from private addresses. */
  feedAllowPrivate: boolean;
  /** Whether this process pulls feeds (one process of the node, and of the cluster). */
  puller: () => boolean;
  clock: () => number;
  logLine: Log;
}

export class Integrations {
  readonly shopify: { connections: PlatformConnections; webhooks: ShopifyWebhooks };
  readonly woocommerce: { connections: PlatformConnections; webhooks: WooWebhooks };
  readonly feeds: FeedPulls;
  /** Deliveries by platform, topic and outcome (for /metrics). */
  readonly writes: PlatformWrites;
  readonly #clock: () => number;
  readonly #logLine: Log;
  #timer: NodeJS.Timeout | undefined;

  constructor(deps: IntegrationsDeps) {
    const { shops, log, applier, pipeline, gidPlatform, clock } = deps;
    this.writes = new PlatformWrites({ shops, log, applier, pipeline, gidPlatform });
    const shopify = new PlatformConnections(shops, 'shopify');
    const woocommerce = new PlatformConnections(shops, 'woocommerce');
    this.shopify = { connections: shopify, webhooks: new ShopifyWebhooks(shopify, this.writes, deps.shopErasure) };
    this.woocommerce = { connections: woocommerce, webhooks: new WooWebhooks(woocommerce, this.writes) };
    const limits = { ...DEFAULT_DOWNLOAD_LIMITS, allowPrivate: deps.feedAllowPrivate };
    this.feeds = new FeedPulls({ shops, catalog: deps.catalog, gidPlatform, download: (url, version) => downloadFeed(url, version, limits), clock, log: deps.logLine, puller: deps.puller });
    this.#clock = clock;
    this.#logLine = deps.logLine;
  }

  /** A shop's record changed, whichever process wrote it (the applied-change listener calls it). */
  shopChanged(shopId: string, record: ShopRecord): void {
    this.shopify.connections.shopChanged();
    this.woocommerce.connections.shopChanged();
    this.feeds.shopChanged(shopId, record);
  }

  /** Starts looking for due feeds every minute. */
  start(): void {
    this.#timer = setInterval(() => void this.feeds.pullDue(this.#clock()).catch((error: unknown) => this.#logLine(`feed pulls failed: ${String(error)}`, { event: 'feed-pull-failed', level: 'error', error: String(error) })), FEED_CHECK_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
