// What a server process tells /metrics: its counters (requests, answers from the cache, events,
// rate-limit refusals, the WebSocket channel), its own state (memory, the shop's log as it has
// applied it, the lease) labelled with its server number, and the shop's models; and what the
// storage every process shares holds (the log's head, the data file, the day's storefront budget),
// which the answering process reads once. node-metrics.ts puts the processes' reports together.
import type { DeliveryCount } from './platform-writes.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { LogTail } from '../ingest/log-tail.js';
import { counter, gauge, labelled, type Labels, type MetricFamily } from '../observability/metric-family.js';
import { processFamilies } from '../observability/process-metrics.js';
import type { RequestMetrics } from '../observability/request-metrics.js';
import type { DiskUsage } from '../store/disk-usage.js';
import type { StorefrontUsage } from '../store/storefront-quota.js';
import type { Answers } from './answers.js';
import { shopModel } from './shop-model.js';

/** The WebSocket channel's counts (ws/stream-server.ts StreamStats). */
export interface SocketCounts {
  connections: number;
  opened: number;
  subscriptions: number;
  framesReceived: number;
  framesSent: number;
  /** Frames published to a topic (each reaches every subscriber of it). */
  pushes: number;
}

/** The rate limits' counts (transport/rate-limits.ts RateLimitStats). */
export interface LimitCounts {
  refused: Readonly<Record<string, number>>;
  addressBuckets: number;
  keyBuckets: number;
  newSessionBuckets: number;
  signInBuckets: number;
}

/** Work in the background, for /metrics (the lease, the snapshot buffer, a refit anywhere). */
export interface BackgroundState {
  readonly snapshotCopyBytes: number;
  readonly refitRunning: boolean;
  readonly housekeeper: boolean;
}

export interface MetricsSources {
  /** This process's number in its node (1 for a server alone). */
  server: number;
  requests: RequestMetrics;
  answers: Answers;
  pipeline: EventPipeline;
  limits: () => LimitCounts;
  sockets: () => SocketCounts;
  engines: ShopEngines;
  tail: LogTail;
  background: BackgroundState;
  /** PAIRWISE_EASE_LAMBDA: the default's λ. */
  easeLambda: number;
  disk: () => DiskUsage;
  storefrontUsage: (shopId: string) => StorefrontUsage;
  storefrontQuota: { eventsPerDay: number; bytesPerDay: number };
  /** What keeps the log from taking writes now, as /healthz says it (a replicated log without NATS or quorum); empty: nothing. */
  logProblems: () => string[];
  /** Platforms' webhook deliveries taken since start, by shop, platform, topic and outcome. */
  deliveries: () => Iterable<DeliveryCount>;
}

const SETTINGS = [
  ['momentum_exponent', 'momentumExponent'],
  ['realtime_weight', 'realTimeWeight'],
  ['history_exponent', 'historyExponent'],
  ['ease_lambda', 'lambda'],
] as const;

/** The shop's models as this process holds them: every process applies the same log, so the node shows the furthest one's ('max'). */
function modelFamilies(sources: MetricsSources, shopId: string): MetricFamily[] {
  const engine = sources.engines.face(shopId);
  const counts = engine.counts();
  const shop = { shop: shopId };
  const { settings, tuning } = shopModel(shopId, engine, sources.easeLambda);
  const score = (x: number | null | undefined) => (x === null || x === undefined ? NaN : x);
  const families = [
    counter('pairwise_events_applied_total', "Events applied to the shop's models since the shop began (restored from a snapshot, then the log after it; those held for products not in the catalog too).", [[shop, counts.events]], 'max'),
    gauge('pairwise_products', "Products in the shop's catalog.", [[shop, counts.products]], 'max'),
    gauge('pairwise_shoppers_tracked', 'Shoppers (customers and sessions) with state in memory.', [[shop, counts.shoppers]], 'max'),
    gauge('pairwise_pending_events', 'Events held for product ids the catalog does not have (yet), counted when the product is added (bounded by PAIRWISE_PENDING_EVENTS).', [[shop, counts.pendingEvents]], 'max'),
    gauge('pairwise_ease_fit_products', "Products in the shop's installed EASE fit (a refit's matrix is 4 × this² bytes; 0: none yet).", [[shop, counts.easeProducts]], 'max'),
    gauge('pairwise_model_setting', "A setting personalized runs with in the shop: tuned on the shop's held-out purchases at its latest refit, or the default.", SETTINGS.map(([setting, field]) => [{ ...shop, setting }, settings[field]] as const), 'max'),
    gauge('pairwise_model_tuned', 'Whether the installed settings beat the default on validation by more than its noise margin (1), or are the defaults (0).', [[shop, tuning?.decision === 'tuned' ? 1 : 0]], 'max'),
  ];
  if (tuning === null) return families;
  return [
    ...families,
    gauge('pairwise_model_validation_ndcg', "nDCG@10 on the shop's newest purchases, held out, at its latest refit: the installed settings, the default, the best tried, and products by popularity (NaN: too little data).", (['chosen', 'default', 'best', 'popularity'] as const).map((model) => [{ ...shop, model }, score(tuning.scores[model])] as const), 'max'),
    gauge('pairwise_model_validation_standard_error', 'Standard error of the per-shopper nDCG@10 difference best − default.', [[shop, tuning.standardError]], 'max'),
    gauge('pairwise_model_validation_shoppers', 'Shoppers whose newest purchases were held out at the latest refit.', [[shop, tuning.shoppers]], 'max'),
    gauge('pairwise_model_tuning_seconds', "Time the latest refit's tuning took in its thread (it runs on that one thread).", [[shop, tuning.seconds]], 'max'),
  ];
}

/** Counts of this process that add up over the node's processes and their restarts. */
function counterFamilies(sources: MetricsSources, shopId: string): MetricFamily[] {
  const cache = sources.answers.cache;
  const limits = sources.limits();
  const sockets = sources.sockets();
  return [
    ...sources.requests.families(),
    counter('pairwise_answer_cache_hits_total', 'Recommendation answers served from the answer cache (all shops).', [[{}, cache.hits]]),
    counter('pairwise_answer_cache_misses_total', 'Recommendation answers computed (not cached, or stale).', [[{}, cache.misses]]),
    counter('pairwise_rate_limited_total', 'Requests, WebSocket operations, new sessions and dashboard sign-ins refused by a rate limit (all shops), by the limit that refused them (docs/api.md, "Rate limits").', Object.entries(limits.refused).map(([kind, count]) => [{ kind }, count] as const)),
    ...sources.pipeline.tally.families(),
    counter('pairwise_storefront_quota_refused_total', "Events of the shop's public key refused since start (429 storefront_quota): the day's budget was spent.", [...new Map([[shopId, 0], ...sources.pipeline.quotaRefusals])].map(([shop, count]) => [{ shop }, count] as const)),
    counter('pairwise_webhook_deliveries_total', "The shop's platform webhook deliveries (POST /webhooks/shopify, /webhooks/woocommerce) admitted by their signature, by platform, topic (a topic Pairwise does not take: other) and outcome (applied, unchanged, duplicate, ignored, refused).", [...sources.deliveries()].filter((d) => d.shopId === shopId).map((d) => [{ shop: d.shopId, platform: d.platform, topic: d.topic, outcome: d.outcome }, d.count] as const)),
    counter('pairwise_ws_connections_opened_total', 'WebSocket connections opened (GET /api/stream).', [[{}, sockets.opened]]),
    counter('pairwise_ws_frames_total', 'WebSocket frames: received from clients, sent to one client (replies, catch-ups), published to a topic (a list pushed to every subscriber of one query).', [
      [{ direction: 'received' }, sockets.framesReceived],
      [{ direction: 'sent' }, sockets.framesSent],
      [{ direction: 'published' }, sockets.pushes],
    ]),
  ];
}

/** This process's state, each sample labelled with its server number. */
function processGauges(sources: MetricsSources, shopId: string): MetricFamily[] {
  const limits = sources.limits();
  const sockets = sources.sockets();
  const lag = sources.tail.shopLag(shopId);
  const shop = { shop: shopId };
  const memory = process.memoryUsage();
  return [
    gauge('pairwise_log_applied_position', "The shop's log position this server process has applied; head - applied is its replication lag.", [[shop, lag.applied]]),
    gauge('pairwise_log_behind_ms', "How long this server process has known of positions of the shop's log it has not applied yet (0: none).", [[shop, lag.behindMs]]),
    gauge('pairwise_answer_cache_bytes', 'Estimated bytes held by the answer cache.', [[{}, sources.answers.cache.bytes]]),
    gauge('pairwise_rate_limit_buckets', 'Token buckets held, by table (each capped).', [
      [{ table: 'address' }, limits.addressBuckets],
      [{ table: 'key' }, limits.keyBuckets],
      [{ table: 'new-sessions' }, limits.newSessionBuckets],
      [{ table: 'sign-ins' }, limits.signInBuckets],
    ]),
    gauge('pairwise_ws_connections', 'WebSocket connections open now.', [[{}, sockets.connections]]),
    gauge('pairwise_ws_subscriptions', 'Subscriptions the open WebSocket connections hold.', [[{}, sockets.subscriptions]]),
    gauge('pairwise_log_writable', 'Whether the log takes this server process\'s writes (1), or not (0: past one machine, NATS is lost or the stream has no quorum; /healthz says which).', [[{}, sources.logProblems().length === 0 ? 1 : 0]]),
    gauge('pairwise_housekeeping_lease_held', 'Whether this server process holds the housekeeping lease (snapshots, EASE refits, the dedup prune): 1 in one process of the node.', [[{}, sources.background.housekeeper ? 1 : 0]]),
    gauge('pairwise_snapshot_copy_buffer_bytes', 'The buffer snapshots are copied into, kept between snapshots up to PAIRWISE_SNAPSHOT_KEEP_BUFFER_MB (0: none kept).', [[{}, sources.background.snapshotCopyBytes]]),
    gauge('nodejs_heap_used_bytes', 'V8 heap in use.', [[{}, memory.heapUsed]]),
    gauge('process_uptime_seconds', 'Seconds since the process started.', [[{}, Math.round(process.uptime())]]),
  ];
}

/** What this process reports to its node's /metrics for a scrape by `shopId`'s key (every shop's counters: another scrape may be another shop's). */
export async function processReport(sources: MetricsSources, shopId: string): Promise<MetricFamily[]> {
  const server: Labels = { server: String(sources.server) };
  return [
    ...counterFamilies(sources, shopId),
    ...modelFamilies(sources, shopId),
    ...processGauges(sources, shopId).map((metric) => labelled(metric, server)),
    ...(await processFamilies(String(sources.server))),
  ];
}

/** What the storage every process of the node shares holds: read by the process that answers. */
export function sharedFamilies(sources: MetricsSources, shopId: string): MetricFamily[] {
  const shop = { shop: shopId };
  const lag = sources.tail.shopLag(shopId);
  const disk = sources.disk();
  const today = sources.storefrontUsage(shopId);
  const { eventsPerDay, bytesPerDay } = sources.storefrontQuota;
  const shared = (name: string, help: string, samples: readonly (readonly [Labels, number])[]) => gauge(name, help, samples, 'first');
  return [
    shared('pairwise_log_head_position', "The shop's last log position (events and changes), as the log holds it.", [[shop, lag.head]]),
    shared('pairwise_log_first_position', "The first position the shop's log still holds (1 until entries older than PAIRWISE_RETENTION_DAYS were dropped).", [[shop, lag.start]]),
    shared('pairwise_log_retained_positions', "Positions (events and changes) the shop's log holds: head - first + 1.", [[shop, Math.max(0, lag.head - lag.start + 1)]]),
    shared('pairwise_log_entries', "Entries of every shop's log together (an append of events or one change each).", [[{}, disk.logEntries]]),
    shared('pairwise_lmdb_file_bytes', 'Size of the LMDB data file (data.mdb); it never shrinks, and pages freed (pruned log entries) are reused first.', [[{}, disk.fileBytes]]),
    shared('pairwise_lmdb_used_bytes', "Bytes of the LMDB pages in use by every database's tree; file - used is free pages.", [[{}, disk.usedBytes]]),
    shared('pairwise_lmdb_log_bytes', "Bytes of the LMDB pages of the shop logs (every shop's together).", [[{}, disk.logBytes]]),
    shared('pairwise_data_dir_free_bytes', 'Bytes left on the file system of the data dir (LMDB refuses writes when it is full: 503).', [[{}, disk.freeBytes]]),
    shared('pairwise_storefront_events_today', "Events the shop's public key stored today (UTC), every server process together.", [[shop, today.events]]),
    shared('pairwise_storefront_bytes_today', 'Bytes (estimated as stored) of those events.', [[shop, today.bytes]]),
    shared('pairwise_storefront_events_per_day', "The day's budget of events for a shop's public key (PAIRWISE_STOREFRONT_EVENTS_PER_DAY; 0: none).", [[{}, eventsPerDay]]),
    shared('pairwise_storefront_bytes_per_day', "The day's budget of bytes (PAIRWISE_STOREFRONT_MB_PER_DAY; 0: none).", [[{}, bytesPerDay]]),
    shared('pairwise_ease_refit_running', 'Whether an EASE refit (any shop, in any server process) is under way and holds its matrix (1) or not (0).', [[{}, sources.background.refitRunning ? 1 : 0]]),
  ];
}
