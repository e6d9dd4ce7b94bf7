// Environment → one frozen, validated Config of plain values. Every tunable of the service is read
// here and nowhere else. It imports only the engine's settings, the address parsers of limits/ and its
// own parts (config/): nothing above it.
import path from 'node:path';
import { natsConfig, NatsConfigError, type NatsConfig } from './config/nats.js';
import { PUBLIC_KEY, SECRET_KEY, signingSecretId } from './config/secret-formats.js';
import { usableCores } from './config/usable-cores.js';
import { DEFAULT_ENGINE_CONFIG, type EngineConfig, type Recency } from './engine/engine-config.js';
import { uwsForms } from './limits/client-address.js';
import { parseRange } from './limits/trusted-proxies.js';

export interface BootstrapShop {
  shopId: string;
  publicKey?: string;
  secretKey?: string;
  /** A customer-token signing secret the shop must accept (added as its newest one if it is not among them). */
  signingSecret?: string;
}


/** The EASE model behind personalized: refitted in a worker thread, one shop at a time. */
export interface EaseRefitConfig {
  /** A shop with new events is refitted at least this often, in ms (0: never on a schedule). */
  intervalMs: number;
  /** ... and as soon as this many events arrived since its last refit (0: never on a count). */
  afterEvents: number;
  /** Products in a fit, the most popular first (the inverse is n³/2 multiply-adds, 4n² bytes). */
  maxItems: number;
  /** Neighbours kept per product row (1-255). */
  neighbors: number;
  /** EASE's L2 weight λ. */
  lambda: number;
  /**
   * A refit still running after this many ms is ended, its matrix freed (0: never): one starved of
   * CPU holds 4n² bytes for nothing and would install a fit of old data.
   */
  timeoutMs: number;
  /**
   * Wall ms each refit may spend tuning the shop's settings on its own held-out purchases before it
   * fits (engine/tuning/tune.ts; at least the default λ is scored); 0: no tuning, the defaults.
   */
  tuningBudgetMs: number;
}

/** Limits of the WebSocket channel (GET /api/stream, docs/api.md): a slow or abusive client is closed without hurting others. */
export interface WsConfig {
  /** Largest frame a client may send; a bigger one closes the connection (1009). */
  maxPayloadBytes: number;
  /** Seconds without traffic before uWS closes the socket (it pings first); 0 or 8-960. */
  idleTimeoutSeconds: number;
  /** Bytes uWS may buffer for one socket; a send past it is dropped and the socket closed. */
  maxBackpressureBytes: number;
  /** Live subscriptions one connection may hold. */
  maxSubscriptions: number;
  /**
   * Distinct live queries (topics) one shop may have over all its connections. Each is kept and
   * recomputed after the shop's changes, and a query can carry any sessionId: without this bound
   * many connections could make a shop's every event cost that many recomputes.
   */
  maxTopicsPerShop: number;
  /** Event ops of one connection awaiting their commit; more are refused with rate_limited. */
  maxInFlight: number;
  /** A reader whose buffer stays above the push watermark this long is closed, in seconds. */
  stallTimeoutSeconds: number;
}

/** A token bucket's shape: refilled `perSecond` tokens a second, holding at most `burst`; perSecond 0 turns the limit off. */
export interface RateConfig {
  perSecond: number;
  burst: number;
}

/** Rate limits per client address, API key and WebSocket connection (docs/api.md "Rate limits", http/rate-limits.ts). */
export interface RateLimitConfig {
  /** False: no limit at all. */
  enabled: boolean;
  /** Loopback clients (this machine: benchmarks, local tools) are never limited. */
  exemptLoopback: boolean;
  /** IP addresses never limited, as configured (e.g. a trusted server that calls with a public key). */
  exemptAddresses: readonly string[];
  /** Per client address: requests with a public key or without a valid key, WebSocket upgrades and operations. */
  address: RateConfig;
  /** Per public key: its requests, WebSocket upgrades and operations from every address together. */
  publicKey: RateConfig;
  /** Per secret key (not limited by address: a merchant's server calls for many shoppers from one address). */
  secretKey: RateConfig;
  /** Per WebSocket connection: operations (messages) it sends. */
  socket: RateConfig;
  /**
   * New sessions (events with the public key naming a sessionId the shop holds no state for) per
   * client address, and per shop over all its public keys and addresses: each session evicts an
   * older one, so these bound how fast a flood can churn the session pool. perSecond is a fraction.
   */
  newSessionsPerAddress: RateConfig;
  newSessionsPerShop: RateConfig;
  /**
   * Dashboard sign-in attempts per client address (perSecond a fraction): a guessing bound of their
   * own, which never spends the address's budget for the storefront API.
   */
  signInsPerAddress: RateConfig;
  /** Buckets kept per table (addresses, keys); the least recently used are dropped past it. */
  maxEntries: number;
}

/** The budget of each shop's public key a day; 0 leaves that measure unbounded. */
export interface StorefrontQuota {
  eventsPerDay: number;
  bytesPerDay: number;
}

export interface AnswerCacheConfig {
  /** Bytes of all cached answers together; 0 turns the cache off. */
  maxBytes: number;
  /** Longest a cached answer is served after it was computed, in ms (an event makes it stale at once). */
  maxAgeMs: number;
}

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  dbPath: string;
  /** Prefix such as "/apps/recs" under which /api is also served; '' when unset. */
  basePath: string;
  bootstrap?: BootstrapShop;
  demo: boolean;
  /** Scheduled product feeds may be fetched from private and special addresses (PAIRWISE_FEED_ALLOW_PRIVATE=1): a feed on the shop's own network. */
  feedAllowPrivate: boolean;
  maxEventBodyBytes: number;
  maxBatchBodyBytes: number;
  maxCatalogBodyBytes: number;
  dedupTtlMs: number;
  /**
   * How long the log keeps an entry, in ms (PAIRWISE_RETENTION_DAYS): older entries that a snapshot
   * covers are dropped by the housekeeping process (ingest/log-retention.ts), their effect kept in the models.
   */
  retentionMs: number;
  /** How often shops with new events get a snapshot of their models (plus one at shutdown). */
  snapshotIntervalMs: number;
  /**
   * The largest buffer a snapshot is copied into that is kept for the next one (store/copy-arena.ts):
   * resident memory the size of the shop's snapshot, traded for no GC work from fresh buffers.
   * A larger snapshot is copied into fresh buffers, freed after its write.
   */
  snapshotKeepBufferBytes: number;
  /** Longest a graceful shutdown waits for requests and WebSocket acks in flight, in ms. */
  shutdownDrainMs: number;
  /** Server processes `node dist/src/main.js` runs on the port (PAIRWISE_SERVERS, default one per usable core): 1 is one process with no supervisor. */
  servers: number;
  /** Set in a server process that a supervisor started: which of its servers this is (0 is the first). */
  serverIndex: number | undefined;
  /** Longest a read with `after=` waits for this process to apply that write before it answers as stale, in ms. */
  afterWaitMs: number;
  /** How often a server process reads the log's heads for what other processes wrote (a fallback to its supervisor's notifications), in ms. */
  logPollMs: number;
  /** Finished recommendation answers kept for repeated requests (see http/answers.ts). */
  answerCache: AnswerCacheConfig;
  engine: EngineConfig;
  easeRefit: EaseRefitConfig;
  ws: WsConfig;
  rateLimits: RateLimitConfig;
  /**
   * What each shop's public key may store a day (UTC), counted for the whole node (every server
   * process together) in the appends' transactions (store/storefront-quota.ts); 0: unbounded.
   */
  storefrontQuota: StorefrontQuota;
  /**
   * Peers (reverse proxies, load balancers, CDNs) whose Forwarded / X-Forwarded-For is believed: IP
   * addresses and CIDR ranges, as configured (limits/trusted-proxies.ts). Empty: the TCP peer is the client.
   */
  trustedProxies: readonly string[];
  /** PAIRWISE_ACCESS_LOG: a log line per request (observability/log.ts). */
  accessLog: boolean;
  /** The log past one machine (PAIRWISE_NATS): a JetStream stream every node materializes; undefined: the data dir's LMDB alone. */
  nats: NatsConfig | undefined;
}

const DAY_MS = 86_400_000;


/** The engine's settings are the engine's own (engine/engine-config.ts); the environment overrides some of them below. */
export { DEFAULT_ENGINE_CONFIG, type EngineConfig };

export class ConfigError extends Error {}

/** A number from the environment within [min, max]: an integer, or any finite number; `fallback` when unset or empty. */
function bounded(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, kind: 'integer' | 'number'): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const valid = kind === 'integer' ? Number.isInteger(value) : Number.isFinite(value);
  if (!valid || value < min || value > max) {
    throw new ConfigError(`${name} must be ${kind === 'integer' ? 'an integer' : 'a number'} from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  return bounded(env, name, fallback, min, max, 'integer');
}

function fraction(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return bounded(env, name, fallback, 0, 1, 'number');
}

/** PAIRWISE_RECENCY: 'off' turns the time-based priors off for every shop; unset, empty or 'auto': each shop decides. */
function recency(raw: string | undefined): Recency {
  if (raw === undefined || raw === '' || raw === 'auto') return 'auto';
  if (raw === 'off') return 'off';
  throw new ConfigError(`PAIRWISE_RECENCY must be auto or off, got "${raw.slice(0, 40)}"`);
}

function replicatedLog(env: NodeJS.ProcessEnv): NatsConfig | undefined {
  try {
    return natsConfig(env);
  } catch (error) {
    if (error instanceof NatsConfigError) throw new ConfigError(error.message);
    throw error;
  }
}

/** More server processes than this is a typo, not a machine. */
export const MAX_SERVERS = 256;

/** PAIRWISE_SERVERS: a whole number of processes from 1, or `auto` (one per usable core, the default). */
function servers(raw: string | undefined): number {
  if (raw === undefined || raw === '' || raw === 'auto') return Math.min(MAX_SERVERS, usableCores());
  if (!/^[0-9]+$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_SERVERS) {
    throw new ConfigError(`PAIRWISE_SERVERS must be a whole number of server processes from 1 to ${MAX_SERVERS}, or auto (one per usable core: ${usableCores()} here), got "${raw}"`);
  }
  return Number(raw);
}

/** A switch: 1 or true is on, 0, false or unset is off; anything else is refused. */
function onOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 (on) or 0 (off), got "${raw}"`);
}

function basePath(raw: string | undefined): string {
  if (raw === undefined || raw === '' || raw === '/') return '';
  const trimmed = raw.replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(trimmed) || trimmed.includes('//')) {
    throw new ConfigError(`BASE_PATH must look like /apps/recs, got "${raw}"`);
  }
  return trimmed;
}

function bootstrap(env: NodeJS.ProcessEnv): BootstrapShop | undefined {
  const shopId = env.PAIRWISE_SHOP;
  const publicKey = env.PAIRWISE_PUBLIC_KEY || undefined;
  const secretKey = env.PAIRWISE_SECRET_KEY || undefined;
  const signingSecret = env.PAIRWISE_SIGNING_SECRET || undefined;
  if (!shopId) {
    if (publicKey || secretKey || signingSecret) throw new ConfigError('PAIRWISE_PUBLIC_KEY/PAIRWISE_SECRET_KEY/PAIRWISE_SIGNING_SECRET need PAIRWISE_SHOP');
    return undefined;
  }
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(shopId)) {
    throw new ConfigError('PAIRWISE_SHOP must be 1-63 chars of a-z, 0-9, _ and -, starting with a letter or digit');
  }
  if (publicKey && !PUBLIC_KEY.test(publicKey)) {
    throw new ConfigError('PAIRWISE_PUBLIC_KEY must be pk_ followed by at least 22 base64url characters (128 bits)');
  }
  if (secretKey && !SECRET_KEY.test(secretKey)) {
    throw new ConfigError('PAIRWISE_SECRET_KEY must be sk_ followed by at least 22 base64url characters (128 bits)');
  }
  if (signingSecret && signingSecretId(signingSecret) === undefined) {
    throw new ConfigError('PAIRWISE_SIGNING_SECRET must be a customer-token signing secret: cts_, 8 letters or digits, _, then at least 32 base64url characters');
  }
  return { shopId, publicKey, secretKey, signingSecret };
}

function idleTimeout(env: NodeJS.ProcessEnv): number {
  const seconds = integer(env, 'PAIRWISE_WS_IDLE_TIMEOUT_SECONDS', 120, 0, 960);
  // uWS accepts 0 (off) or 8-960 s: its timer resolution is 4 s.
  if (seconds !== 0 && seconds < 8) throw new ConfigError('PAIRWISE_WS_IDLE_TIMEOUT_SECONDS must be 0 (off) or from 8 to 960');
  return seconds;
}

function wsConfig(env: NodeJS.ProcessEnv): WsConfig {
  return Object.freeze({
    maxPayloadBytes: integer(env, 'PAIRWISE_WS_MAX_PAYLOAD_BYTES', 64 * 1024, 1024, 16 * 1024 * 1024),
    idleTimeoutSeconds: idleTimeout(env),
    maxBackpressureBytes: integer(env, 'PAIRWISE_WS_MAX_BACKPRESSURE_BYTES', 1024 * 1024, 4096, 256 * 1024 * 1024),
    maxSubscriptions: integer(env, 'PAIRWISE_WS_MAX_SUBSCRIPTIONS', 20, 1, 1000),
    maxTopicsPerShop: integer(env, 'PAIRWISE_WS_MAX_TOPICS_PER_SHOP', 20_000, 1, 10_000_000),
    maxInFlight: integer(env, 'PAIRWISE_WS_MAX_IN_FLIGHT', 32, 1, 10_000),
    stallTimeoutSeconds: integer(env, 'PAIRWISE_WS_STALL_TIMEOUT_SECONDS', 30, 1, 3600),
  });
}

/**
 * A rate as configured, shared out over `servers` processes: each keeps its own buckets, and a
 * client's connections spread over them, so each allows its share (rounded up).
 */
function rate(env: NodeJS.ProcessEnv, name: string, perSecond: number, servers: number): RateConfig {
  const rate = integer(env, `${name}_PER_SECOND`, perSecond, 0, 1_000_000);
  // Unless set, a bucket holds two seconds' worth: a page load's requests come together.
  const burst = integer(env, `${name}_BURST`, Math.max(1, 2 * rate), 1, 10_000_000);
  return Object.freeze({ perSecond: Math.ceil(rate / servers), burst: Math.max(1, Math.ceil(burst / servers)) });
}

/** A per-minute rate, shared out over `servers` processes as `rate` does; its burst is a minute's worth. */
function perMinute(env: NodeJS.ProcessEnv, name: string, fallback: number, servers: number): RateConfig {
  const share = Math.ceil(integer(env, name, fallback, 0, 10_000_000) / servers);
  return Object.freeze({ perSecond: share / 60, burst: Math.max(1, share) });
}

function exemptAddresses(raw: string | undefined): { exemptLoopback: boolean; exemptAddresses: readonly string[] } {
  const entries = (raw ?? 'loopback').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const addresses = entries.filter((entry) => entry !== 'loopback');
  for (const address of addresses) {
    if (uwsForms(address) === undefined) throw new ConfigError(`PAIRWISE_RATE_LIMIT_EXEMPT lists "loopback" and IP addresses, got "${address}"`);
  }
  return { exemptLoopback: entries.includes('loopback'), exemptAddresses: Object.freeze(addresses) };
}

function trustedProxies(raw: string | undefined): readonly string[] {
  const entries = (raw ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const range = parseRange(entry);
    if (typeof range === 'string') throw new ConfigError(`PAIRWISE_TRUSTED_PROXIES lists IP addresses and CIDR ranges: ${range}`);
  }
  return Object.freeze(entries);
}

function rateLimits(env: NodeJS.ProcessEnv, servers: number): RateLimitConfig {
  return Object.freeze({
    enabled: env.PAIRWISE_RATE_LIMITS !== '0' && env.PAIRWISE_RATE_LIMITS !== 'false',
    ...exemptAddresses(env.PAIRWISE_RATE_LIMIT_EXEMPT),
    address: rate(env, 'PAIRWISE_RATE_ADDRESS', 50, servers),
    publicKey: rate(env, 'PAIRWISE_RATE_PUBLIC_KEY', 5000, servers),
    secretKey: rate(env, 'PAIRWISE_RATE_SECRET_KEY', 5000, servers),
    // A WebSocket connection stays on one server: its own rate is not shared out.
    socket: rate(env, 'PAIRWISE_RATE_WS_OPS', 20, 1),
    newSessionsPerAddress: perMinute(env, 'PAIRWISE_NEW_SESSIONS_PER_ADDRESS_PER_MINUTE', 120, servers),
    newSessionsPerShop: perMinute(env, 'PAIRWISE_NEW_SESSIONS_PER_SHOP_PER_MINUTE', 6000, servers),
    signInsPerAddress: perMinute(env, 'PAIRWISE_SIGN_INS_PER_ADDRESS_PER_MINUTE', 30, servers),
    maxEntries: integer(env, 'PAIRWISE_RATE_LIMIT_ENTRIES', 100_000, 16, 10_000_000),
  });
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.PAIRWISE_DATA_DIR || 'data');
  const halfLifeHours = integer(env, 'PAIRWISE_TRENDING_HALF_LIFE_HOURS', 48, 1, 24 * 365);
  const serverCount = servers(env.PAIRWISE_SERVERS);
  return Object.freeze({
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    dataDir,
    dbPath: path.join(dataDir, 'db'),
    basePath: basePath(env.BASE_PATH),
    bootstrap: bootstrap(env),
    demo: env.PAIRWISE_DEMO !== '0' && env.PAIRWISE_DEMO !== 'false',
    feedAllowPrivate: env.PAIRWISE_FEED_ALLOW_PRIVATE === '1' || env.PAIRWISE_FEED_ALLOW_PRIVATE === 'true',
    maxEventBodyBytes: 64 * 1024,
    maxBatchBodyBytes: 512 * 1024,
    maxCatalogBodyBytes: 8 * 1024 * 1024,
    dedupTtlMs: 7 * DAY_MS,
    retentionMs: integer(env, 'PAIRWISE_RETENTION_DAYS', 400, 1, 36_500) * DAY_MS,
    snapshotIntervalMs: integer(env, 'PAIRWISE_SNAPSHOT_MINUTES', 5, 1, 24 * 60) * 60_000,
    snapshotKeepBufferBytes: integer(env, 'PAIRWISE_SNAPSHOT_KEEP_BUFFER_MB', 64, 0, 64 * 1024) * 1024 * 1024,
    shutdownDrainMs: integer(env, 'PAIRWISE_SHUTDOWN_TIMEOUT_SECONDS', 10, 1, 3600) * 1000,
    servers: serverCount,
    serverIndex: env.PAIRWISE_SERVER_INDEX === undefined ? undefined : integer(env, 'PAIRWISE_SERVER_INDEX', 0, 0, MAX_SERVERS - 1),
    afterWaitMs: integer(env, 'PAIRWISE_AFTER_WAIT_MS', 250, 0, 10_000),
    logPollMs: integer(env, 'PAIRWISE_LOG_POLL_MS', 100, 5, 60_000),
    answerCache: Object.freeze({
      maxBytes: integer(env, 'PAIRWISE_ANSWER_CACHE_MB', 64, 0, 64 * 1024) * 1024 * 1024,
      maxAgeMs: integer(env, 'PAIRWISE_ANSWER_MAX_AGE_MS', 30_000, 0, 3_600_000),
    }),
    engine: Object.freeze({
      ...DEFAULT_ENGINE_CONFIG,
      trendingHalfLifeMs: halfLifeHours * 3_600_000,
      maxCustomers: integer(env, 'PAIRWISE_MAX_CUSTOMERS', DEFAULT_ENGINE_CONFIG.maxCustomers, 1, 10_000_000),
      maxSessions: integer(env, 'PAIRWISE_MAX_SESSIONS', DEFAULT_ENGINE_CONFIG.maxSessions, 1, 10_000_000),
      maxPendingEvents: integer(env, 'PAIRWISE_PENDING_EVENTS', DEFAULT_ENGINE_CONFIG.maxPendingEvents, 0, 10_000_000),
      pairHalfLifeMs: integer(env, 'PAIRWISE_BASKET_HALF_LIFE_DAYS', DEFAULT_ENGINE_CONFIG.pairHalfLifeMs / DAY_MS, 1, 10 * 365) * DAY_MS,
      pairFloor: fraction(env, 'PAIRWISE_BASKET_PAIR_FLOOR', DEFAULT_ENGINE_CONFIG.pairFloor),
      pairConfidenceBaskets: bounded(env, 'PAIRWISE_BASKET_CONFIDENT_PAIR_BASKETS', DEFAULT_ENGINE_CONFIG.pairConfidenceBaskets, 0, 1000, 'number'),
      cartPairWeight: fraction(env, 'PAIRWISE_CART_PAIR_WEIGHT', DEFAULT_ENGINE_CONFIG.cartPairWeight),
      pairPopularityExponent: fraction(env, 'PAIRWISE_BASKET_POPULARITY_EXPONENT', DEFAULT_ENGINE_CONFIG.pairPopularityExponent),
      pairContentWeight: fraction(env, 'PAIRWISE_BASKET_CONTENT_WEIGHT', DEFAULT_ENGINE_CONFIG.pairContentWeight),
      attributionWindowMs: integer(env, 'PAIRWISE_ATTRIBUTION_WINDOW_DAYS', 7, 1, 90) * DAY_MS,
      recency: recency(env.PAIRWISE_RECENCY),
    }),
    easeRefit: Object.freeze({
      intervalMs: integer(env, 'PAIRWISE_EASE_REFIT_MINUTES', 60, 0, 7 * 24 * 60) * 60_000,
      afterEvents: integer(env, 'PAIRWISE_EASE_REFIT_EVENTS', 50_000, 0, 1_000_000_000),
      maxItems: integer(env, 'PAIRWISE_EASE_MAX_PRODUCTS', 5000, 2, 20_000),
      neighbors: integer(env, 'PAIRWISE_EASE_NEIGHBORS', 100, 1, 255),
      lambda: integer(env, 'PAIRWISE_EASE_LAMBDA', 500, 1, 1_000_000),
      timeoutMs: integer(env, 'PAIRWISE_EASE_REFIT_TIMEOUT_MINUTES', 10, 0, 24 * 60) * 60_000,
      tuningBudgetMs: integer(env, 'PAIRWISE_TUNING_BUDGET_SECONDS', 120, 0, 3600) * 1000,
    }),
    ws: wsConfig(env),
    rateLimits: rateLimits(env, serverCount),
    // Sized for a large shop: ~100k sessions a day of ~30 events (impressions most of them), ~150 bytes each.
    storefrontQuota: Object.freeze({
      eventsPerDay: integer(env, 'PAIRWISE_STOREFRONT_EVENTS_PER_DAY', 5_000_000, 0, 1_000_000_000),
      bytesPerDay: integer(env, 'PAIRWISE_STOREFRONT_MB_PER_DAY', 1000, 0, 1_000_000) * 1024 * 1024,
    }),
    trustedProxies: trustedProxies(env.PAIRWISE_TRUSTED_PROXIES),
    accessLog: onOff(env, 'PAIRWISE_ACCESS_LOG'),
    nats: replicatedLog(env),
  });
}
