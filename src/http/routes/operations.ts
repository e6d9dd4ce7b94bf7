// Operations: GET /healthz (no key) and GET /metrics (Prometheus text for the admin key's shop).
import type { ShopModel } from '../../api/responses.js';
import type { Principal } from '../../app/principal.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../../transport/route.js';

/** The settings personalized runs with and their validation at the latest refit (GET /api/shop/model has the whole report). */
function tuningLines({ settings, tuning }: ShopModel, shop: string): string[] {
  const score = (x: number | null | undefined) => (x === null || x === undefined ? 'NaN' : String(x));
  const lines = [
    "# HELP pairwise_model_setting A setting personalized runs with in the shop: tuned on the shop's held-out purchases at its latest refit, or the default.",
    '# TYPE pairwise_model_setting gauge',
    `pairwise_model_setting{${shop},setting="momentum_exponent"} ${settings.momentumExponent}`,
    `pairwise_model_setting{${shop},setting="realtime_weight"} ${settings.realTimeWeight}`,
    `pairwise_model_setting{${shop},setting="history_exponent"} ${settings.historyExponent}`,
    `pairwise_model_setting{${shop},setting="ease_lambda"} ${settings.lambda}`,
    '# HELP pairwise_model_tuned 1 when the installed settings beat the default on validation by more than its noise margin, else 0 (the defaults).',
    '# TYPE pairwise_model_tuned gauge',
    `pairwise_model_tuned{${shop}} ${tuning?.decision === 'tuned' ? 1 : 0}`,
  ];
  if (tuning === null) return lines;
  return [
    ...lines,
    "# HELP pairwise_model_validation_ndcg nDCG@10 on the shop's newest purchases, held out, at its latest refit: the installed settings, the default, the best tried, and products by popularity (NaN: too little data).",
    '# TYPE pairwise_model_validation_ndcg gauge',
    `pairwise_model_validation_ndcg{${shop},model="chosen"} ${score(tuning.scores.chosen)}`,
    `pairwise_model_validation_ndcg{${shop},model="default"} ${score(tuning.scores.default)}`,
    `pairwise_model_validation_ndcg{${shop},model="best"} ${score(tuning.scores.best)}`,
    `pairwise_model_validation_ndcg{${shop},model="popularity"} ${score(tuning.scores.popularity)}`,
    '# HELP pairwise_model_validation_standard_error Standard error of the per-shopper nDCG@10 difference best − default.',
    '# TYPE pairwise_model_validation_standard_error gauge',
    `pairwise_model_validation_standard_error{${shop}} ${tuning.standardError}`,
    '# HELP pairwise_model_validation_shoppers Shoppers whose newest purchases were held out at the latest refit.',
    '# TYPE pairwise_model_validation_shoppers gauge',
    `pairwise_model_validation_shoppers{${shop}} ${tuning.shoppers}`,
    "# HELP pairwise_model_tuning_seconds Time the latest refit's tuning took in its thread (it runs on that one thread).",
    '# TYPE pairwise_model_tuning_seconds gauge',
    `pairwise_model_tuning_seconds{${shop}} ${tuning.seconds}`,
  ];
}

/** The shop's storefront budget: what its public key stored today (every server process together), the bounds, and this process's refusals. */
function storefrontLines(deps: HttpDeps, shopId: string, shop: string): string[] {
  const today = deps.shops.storefront(shopId);
  const { eventsPerDay, bytesPerDay } = today;
  return [
    "# HELP pairwise_storefront_events_today Events the shop's public key stored today (UTC), every server process together.",
    '# TYPE pairwise_storefront_events_today gauge',
    `pairwise_storefront_events_today{${shop}} ${today.events}`,
    "# HELP pairwise_storefront_bytes_today Bytes (estimated as stored) of those events.",
    '# TYPE pairwise_storefront_bytes_today gauge',
    `pairwise_storefront_bytes_today{${shop}} ${today.bytes}`,
    "# HELP pairwise_storefront_events_per_day The day's budget of events for a shop's public key (PAIRWISE_STOREFRONT_EVENTS_PER_DAY; 0: none).",
    '# TYPE pairwise_storefront_events_per_day gauge',
    `pairwise_storefront_events_per_day ${eventsPerDay}`,
    "# HELP pairwise_storefront_bytes_per_day The day's budget of bytes (PAIRWISE_STOREFRONT_MB_PER_DAY; 0: none).",
    '# TYPE pairwise_storefront_bytes_per_day gauge',
    `pairwise_storefront_bytes_per_day ${bytesPerDay}`,
    "# HELP pairwise_storefront_quota_refused_total Events of the shop's public key this server process refused since start (429 storefront_quota): the day's budget was spent.",
    '# TYPE pairwise_storefront_quota_refused_total counter',
    `pairwise_storefront_quota_refused_total{${shop},pid="${process.pid}"} ${deps.node.quotaRefusals(shopId)}`,
  ];
}

/**
 * Which process answered and how far it is behind the log. Per-shop positions are in /metrics
 * (admin key): this route has no key, and a list of shop ids is not for anyone who asks.
 */
export function getHealth(deps: HttpDeps): Handler {
  return (call) => call.json(JSON.stringify(deps.node.health()));
}

export function getMetrics(deps: HttpDeps): Handler<Principal> {
  return (call) => {
    const { shopId } = call.principal;
    const counts = deps.shops.counts(shopId);
    const memory = process.memoryUsage();
    const answers = deps.answers.cache;
    const limits = deps.limits.stats();
    const shop = `shop="${shopId}"`;
    const lag = deps.node.shopLog(shopId);
    const disk = deps.node.disk();
    const lines = [
      '# HELP pairwise_log_head_position The shop\'s last log position (events and changes), as the log holds it.',
      '# TYPE pairwise_log_head_position gauge',
      `pairwise_log_head_position{${shop},pid="${process.pid}"} ${lag.head}`,
      '# HELP pairwise_log_first_position The first position the shop\'s log still holds (1 until entries older than PAIRWISE_RETENTION_DAYS were dropped).',
      '# TYPE pairwise_log_first_position gauge',
      `pairwise_log_first_position{${shop}} ${lag.start}`,
      '# HELP pairwise_log_retained_positions Positions (events and changes) the shop\'s log holds: head - first + 1.',
      '# TYPE pairwise_log_retained_positions gauge',
      `pairwise_log_retained_positions{${shop}} ${Math.max(0, lag.head - lag.start + 1)}`,
      '# HELP pairwise_log_entries Entries of every shop\'s log together (an append of events or one change each).',
      '# TYPE pairwise_log_entries gauge',
      `pairwise_log_entries ${disk.logEntries}`,
      '# HELP pairwise_lmdb_file_bytes Size of the LMDB data file (data.mdb); it never shrinks, and pages freed (pruned log entries) are reused first.',
      '# TYPE pairwise_lmdb_file_bytes gauge',
      `pairwise_lmdb_file_bytes ${disk.fileBytes}`,
      '# HELP pairwise_lmdb_used_bytes Bytes of the LMDB pages in use by every database\'s tree; file - used is free pages.',
      '# TYPE pairwise_lmdb_used_bytes gauge',
      `pairwise_lmdb_used_bytes ${disk.usedBytes}`,
      '# HELP pairwise_lmdb_log_bytes Bytes of the LMDB pages of the shop logs (every shop\'s together).',
      '# TYPE pairwise_lmdb_log_bytes gauge',
      `pairwise_lmdb_log_bytes ${disk.logBytes}`,
      '# HELP pairwise_log_applied_position The shop\'s log position this server process has applied; head - applied is its replication lag.',
      '# TYPE pairwise_log_applied_position gauge',
      `pairwise_log_applied_position{${shop},pid="${process.pid}"} ${lag.applied}`,
      '# HELP pairwise_log_behind_ms How long this server process has known of positions of the shop\'s log it has not applied yet (0: none).',
      '# TYPE pairwise_log_behind_ms gauge',
      `pairwise_log_behind_ms{${shop},pid="${process.pid}"} ${lag.behindMs}`,
      '# HELP pairwise_events_applied_total Events applied to the shop\'s models since start (replay included; those held for products not in the catalog too).',
      '# TYPE pairwise_events_applied_total counter',
      `pairwise_events_applied_total{${shop}} ${counts.events}`,
      '# HELP pairwise_products Products in the shop\'s catalog.',
      '# TYPE pairwise_products gauge',
      `pairwise_products{${shop}} ${counts.products}`,
      '# HELP pairwise_shoppers_tracked Shoppers (customers and sessions) with state in memory.',
      '# TYPE pairwise_shoppers_tracked gauge',
      `pairwise_shoppers_tracked{${shop}} ${counts.shoppers}`,
      '# HELP pairwise_pending_events Events held for product ids the catalog does not have (yet), counted when the product is added (bounded by PAIRWISE_PENDING_EVENTS).',
      '# TYPE pairwise_pending_events gauge',
      `pairwise_pending_events{${shop}} ${counts.pendingEvents}`,
      '# HELP pairwise_answer_cache_hits_total Recommendation answers served from the answer cache (all shops).',
      '# TYPE pairwise_answer_cache_hits_total counter',
      `pairwise_answer_cache_hits_total ${answers.hits}`,
      '# HELP pairwise_answer_cache_misses_total Recommendation answers computed (not cached, or stale).',
      '# TYPE pairwise_answer_cache_misses_total counter',
      `pairwise_answer_cache_misses_total ${answers.misses}`,
      '# HELP pairwise_answer_cache_bytes Estimated bytes held by the answer cache.',
      '# TYPE pairwise_answer_cache_bytes gauge',
      `pairwise_answer_cache_bytes ${answers.bytes}`,
      '# HELP pairwise_rate_limited_total Requests, WebSocket operations, new sessions and dashboard sign-ins refused by a rate limit (all shops).',
      '# TYPE pairwise_rate_limited_total counter',
      `pairwise_rate_limited_total ${limits.refused}`,
      '# HELP pairwise_rate_limit_buckets Token buckets held, by table (each capped).',
      '# TYPE pairwise_rate_limit_buckets gauge',
      `pairwise_rate_limit_buckets{table="address"} ${limits.addressBuckets}`,
      `pairwise_rate_limit_buckets{table="key"} ${limits.keyBuckets}`,
      `pairwise_rate_limit_buckets{table="new-sessions"} ${limits.newSessionBuckets}`,
      `pairwise_rate_limit_buckets{table="sign-ins"} ${limits.signInBuckets}`,
      ...storefrontLines(deps, shopId, shop),
      '# HELP pairwise_ease_fit_products Products in the shop\'s installed EASE fit (a refit\'s matrix is 4 × this² bytes; 0: none yet).',
      '# TYPE pairwise_ease_fit_products gauge',
      `pairwise_ease_fit_products{${shop}} ${counts.easeProducts}`,
      ...tuningLines(deps.shops.model(shopId), shop),
      '# HELP pairwise_ease_refit_running 1 while an EASE refit (any shop, in any server process) is under way and holds its matrix.',
      '# TYPE pairwise_ease_refit_running gauge',
      `pairwise_ease_refit_running ${deps.node.background.refitRunning ? 1 : 0}`,
      '# HELP pairwise_housekeeping_lease_held 1 in the server process that holds the housekeeping lease (snapshots, EASE refits, the dedup prune), 0 in the others.',
      '# TYPE pairwise_housekeeping_lease_held gauge',
      `pairwise_housekeeping_lease_held{pid="${process.pid}"} ${deps.node.background.housekeeper ? 1 : 0}`,
      '# HELP pairwise_snapshot_copy_buffer_bytes The buffer snapshots are copied into, kept between snapshots up to PAIRWISE_SNAPSHOT_KEEP_BUFFER_MB (0: none kept).',
      '# TYPE pairwise_snapshot_copy_buffer_bytes gauge',
      `pairwise_snapshot_copy_buffer_bytes ${deps.node.background.snapshotCopyBytes}`,
      '# HELP process_resident_memory_bytes Resident memory of the whole process.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${memory.rss}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${memory.heapUsed}`,
      '# HELP nodejs_external_memory_bytes Memory outside the V8 heap held by JavaScript objects (the models\' typed arrays).',
      '# TYPE nodejs_external_memory_bytes gauge',
      `nodejs_external_memory_bytes ${memory.external}`,
      '# HELP process_uptime_seconds Seconds since the process started.',
      '# TYPE process_uptime_seconds gauge',
      `process_uptime_seconds ${Math.round(process.uptime())}`,
      '',
    ];
    call.send(200, 'text/plain; version=0.0.4', lines.join('\n'));
  };
}
