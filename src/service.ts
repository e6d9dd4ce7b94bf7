// Composition of the whole service: storage → replay → bootstrap and demo shops → HTTP server.
// main.ts runs it for real; tests run it in-process on port 0 with a temp data dir.
import { mkdirSync } from 'node:fs';
import { Answers } from './app/answers.js';
import { bootstrapShop } from './app/bootstrap-shop.js';
import { CatalogUpdates } from './app/catalog-updates.js';
import { CustomerData } from './app/customer-data.js';
import { CustomerIdentity } from './app/customer-identity.js';
import { Experiments } from './app/experiments.js';
import type { FeedPulls } from './app/feed-pulls.js';
import { Integrations } from './app/integrations.js';
import { KeyDirectory } from './app/key-directory.js';
import { NodeStatus } from './app/node-status.js';
import { PositionWaits } from './app/position-waits.js';
import { Rules } from './app/rules.js';
import { ShopErasure } from './app/shop-erasure.js';
import { ShopSettings } from './app/shop-settings.js';
import { ShopStatus } from './app/shop-status.js';
import { Stats } from './app/stats.js';
import { EventTracking } from './app/track-events.js';
import type { Config } from './config.js';
import { DashboardSessions, IDLE_MS } from './dashboard/sessions.js';
import { defaultDemoDir } from './demo/demo-files.js';
import { openDemoStore, type OpenDemoStore } from './demo/demo-store.js';
import type { DemoKeys, DemoSeeded } from './demo/seed-demo-store.js';
import { ShopEngines } from './engine/shop-engines.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import { BackgroundWork } from './ingest/background-work.js';
import { CustomerRebuild } from './ingest/customer-rebuild.js';
import { EventPipeline } from './ingest/event-pipeline.js';
import { LogApplier } from './ingest/log-applier.js';
import { LogListeners } from './ingest/log-listeners.js';
import { LogTail } from './ingest/log-tail.js';
import { replay, restoreShop, type ReplayStats } from './ingest/replay.js';
import type { MonotonicClock } from './limits/monotonic-clock.js';
import { CatalogStore } from './store/catalog-store.js';
import { CustomerStore } from './store/customer-store.js';
import { LmdbSessionTable } from './store/dashboard-session-table.js';
import { lockDataDir, type DataDirLock } from './store/data-dir-lock.js';
import { checkLogLayout, openDatabases, type Databases } from './store/database.js';
import { diskUsage } from './store/disk-usage.js';
import { closeDatabases, type Committer } from './store/durable-commit.js';
import { ExperimentStore } from './store/experiment-store.js';
import { restoreNodeBackup, type ReplicatedLog } from './store/jetstream/replicated-log.js';
import { openShopLog } from './store/open-log.js';
import { RuleStore } from './store/rule-store.js';
import type { ShopLog } from './store/shop-log.js';
import { ShopStore } from './store/shop-store.js';
import { SnapshotStore } from './store/snapshot-store.js';
import { RateLimits } from './transport/rate-limits.js';
import { StreamServer } from './ws/stream-server.js';
import { NodeMetrics } from './app/node-metrics.js';
import { RequestMetrics } from './observability/request-metrics.js';
import { processLog, type Log } from './observability/log.js';
import { Telemetry } from './transport/telemetry.js';
import { TrustedProxies } from './limits/trusted-proxies.js';

export interface ServiceOptions {
  /** Epoch ms for event times and decay; tests may pin it. */
  clock?: () => number;
  log?: Log;
  /** The access log's line per request (PAIRWISE_ACCESS_LOG); undefined: off. */
  access?: (fields: Record<string, unknown>) => void;
  demoDir?: string;
  /** The rate limits' buckets' time (performance.now()); tests may drive it. */
  monotonic?: MonotonicClock;
  /** How this thread's stores commit to LMDB; tests wrap the real one to hold flushes or refuse commits (the snapshot writer thread keeps the real one). */
  committer?: Committer;
}

export interface RunningService {
  readonly config: Config;
  readonly port: number;
  readonly http: HttpServer;
  /** The WebSocket channel, GET /api/stream. */
  readonly stream: StreamServer;
  readonly dbs: Databases;
  readonly engines: ShopEngines;
  readonly pipeline: EventPipeline;
  readonly shops: ShopStore;
  readonly limits: RateLimits;
  /** The log every process applies (its commits can be announced to other processes: onCommitted). */
  readonly shopLog: ShopLog;
  /** What other processes wrote, followed: check(shopId) when told of a commit. */
  readonly tail: LogTail;
  /** GET /metrics: this process's report, and where the node's reports are gathered from. */
  readonly metrics: NodeMetrics;
  /** The replicated log (PAIRWISE_NATS), when there is one. */
  readonly replicated?: ReplicatedLog;
  /** What the start found in the data dir and rebuilt the models from. */
  readonly replayed: ReplayStats;
  readonly demoKeys?: DemoKeys;
  /** What this start seeded into a new demo store. */
  readonly demoSeeded?: DemoSeeded;
  /** The shops' scheduled product feeds (feedPulls.pull(shopId) pulls one now). */
  readonly feedPulls: FeedPulls;
  /** Snapshots every shop with events since its last snapshot now (as the interval timer does); resolves with how many. */
  snapshot(): Promise<number>;
  /** Snapshots as snapshot() does, then drops the log entries the retention allows (as the interval timer does); resolves with the positions dropped. */
  pruneLog(): Promise<number>;
  /**
   * Graceful stop: no new requests, in-flight ones finish (WebSocket acks sent, sockets closed),
   * the models snapshotted, LMDB flushed and closed. Rejects when the storage did not close within
   * shutdownDrainMs (an LMDB write thread may then still be running: see main.ts).
   */
  stop(): Promise<void>;
}

/** Resolves true once `work` is done, false when `ms` passed first (the work goes on, unawaited). */
async function doneWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the service on its data dir, or throws a StartupError when another server holds that
 * dir or the port is taken: then the data dir is left as it was found (lock not taken, LMDB closed).
 */
export async function startService(config: Config, given: ServiceOptions = {}): Promise<RunningService> {
  const options = { ...given, log: given.log ?? processLog().log };
  // A new node of a replicated log starts from the latest node backup (a supervisor's servers: it did).
  if (config.nats !== undefined && config.serverIndex === undefined) await restoreNodeBackup(config.nats, config.dbPath, options.log);
  mkdirSync(config.dbPath, { recursive: true });
  const dbs = openDatabases(config.dbPath, options.committer);
  let lock: DataDirLock | undefined;
  const opened: (() => Promise<void>)[] = [];
  try {
    // A server process its supervisor started shares the supervisor's lock.
    lock = config.serverIndex === undefined ? lockDataDir(dbs.root, config.dbPath, config.dataDir) : { file: '', release() {} };
    return await compose(config, options, dbs, lock, opened);
  } catch (error) {
    // A start that fails (one that has to write on a full disk, a port in use) leaves nothing open.
    for (const close of opened.reverse()) await close().catch(() => {});
    await doneWithin(closeDatabases(dbs), config.shutdownDrainMs).catch(() => {});
    lock?.release();
    throw error;
  }
}

/** @param opened closers of what compose opened beside the data dir, run if the start fails */
async function compose(config: Config, options: ServiceOptions & { log: Log }, dbs: Databases, lock: DataDirLock, opened: (() => Promise<void>)[]): Promise<RunningService> {
  const clock = options.clock ?? Date.now;
  const log = options.log;
  checkLogLayout(dbs);
  const { local, shopLog, replicated, logId } = await openShopLog(config, dbs, log, opened);

  // The models, rebuilt from the log and kept applying it (ingest/).
  const engines = new ShopEngines(config.engine);
  const applied = new LogListeners();
  const catalogStore = new CatalogStore(dbs, shopLog);
  const snapshotStore = new SnapshotStore(dbs, { keepBufferBytes: config.snapshotKeepBufferBytes });
  const customerStore = new CustomerStore(dbs, shopLog);
  // An evicted customer is refilled from their latest events before their next event or answer.
  const rebuild = new CustomerRebuild(customerStore);
  const applier = new LogApplier(shopLog, engines, applied, {
    // Models that lack entries pruned since they were last applied start again from the latest snapshot.
    restore: (shopId) => restoreShop(shopId, catalogStore, snapshotStore, engines).snapshot,
    customers: rebuild,
  });
  // Every write of this process is applied before it is answered, with whatever precedes it in the log.
  const applyThrough = (shopId: string, position: number) => applier.applyThrough(shopId, position);
  const replayed = replay(catalogStore, shopLog, snapshotStore, engines, { customers: rebuild });
  const pipeline = new EventPipeline(shopLog, applier, config.dedupTtlMs, logId);
  const tail = new LogTail(shopLog, engines, applier, log);
  // What this node's follower materializes (other nodes' writes) is applied here at once; other
  // server processes of the node hear of it from the supervisor, as of any commit.
  if (replicated !== undefined) local.onCommitted((shopId) => void tail.check(shopId));

  // The use cases both transports call (app/).
  const shops = new ShopStore(dbs, shopLog, applyThrough);
  const catalog = new CatalogUpdates(catalogStore, engines, applier);
  const customers = new CustomerData(customerStore, engines, applier);
  const positions = new PositionWaits(shopLog, engines, tail, config.afterWaitMs, logId, replicated !== undefined);
  applied.onPosition(positions.reached);
  const experiments = new Experiments(new ExperimentStore(dbs, shopLog, applyThrough), engines);
  applied.onExperimentChanged((shopId, record) => experiments.applied(shopId, record));
  const rules = new Rules(new RuleStore(dbs, shopLog, applyThrough), engines);
  await bootstrapShop(config.bootstrap, shops, log, clock());
  const demo = config.demo ? await openDemoStore({ shops, catalog, pipeline, experiments, engines, gidPlatform: config.engine.gidPlatform, demoDir: options.demoDir ?? defaultDemoDir(), dataDir: config.dataDir, clock, log }) : undefined;
  // After the demo's seeding: refits look at each shop's events from here on (a shop being loaded waits).
  const background = new BackgroundWork({ config, dbs, shopLog, engines, applier, snapshotStore, clock, log, clusterRefits: replicated?.refitLease });
  applied.onCustomerErased(() => background.customerErased());
  const keys = new KeyDirectory(shops, applied);
  const identity = new CustomerIdentity();
  const limits = new RateLimits(config.rateLimits, config.host, config.trustedProxies, options.monotonic);
  const answers = new Answers(engines, config.answerCache, identity, experiments, (shopId, customerId) => rebuild.refill(shopId, engines, customerId));
  const events = new EventTracking(pipeline, identity, engines, limits);
  const settings = new ShopSettings(shops, engines);
  const storefrontUsage = (shopId: string) => local.storefront.usage(shopId, clock());
  const shopStatus = new ShopStatus({ shops, engines, settings, engineConfig: config.engine, lambda: config.easeRefit.lambda, storefrontQuota: config.storefrontQuota, storefrontUsage });
  const node = new NodeStatus({ tail, pipeline, disk: () => diskUsage(dbs), logProblems: () => replicated?.problems() ?? [], background });
  const shopErasure = new ShopErasure((shopId) => shopLog.eraseShop(shopId), (shopId) => forgetShop(shopId));
  const dashboardSessions = new DashboardSessions(new LmdbSessionTable(dbs, IDLE_MS), IDLE_MS);
  const integrations = new Integrations({
    shops,
    log: shopLog,
    applier,
    pipeline,
    catalog,
    shopErasure,
    clock,
    logLine: log,
    gidPlatform: config.engine.gidPlatform,
    feedAllowPrivate: config.feedAllowPrivate,
    // One process pulls feeds: the housekeeper, and past one machine the one that runs the cluster's refits.
    puller: () => background.housekeeper && (replicated === undefined || replicated.refitLease.held),
  });
  applied.onShopChanged((shopId, record) => integrations.shopChanged(shopId, record));

  // The transports. The stream's listeners of applied changes come after the key cache's: a key check sees the cache cleared.
  const resolveKey = keys.resolve;
  const requests = new RequestMetrics();
  const telemetry = new Telemetry(requests, log, options.access);
  const stream = new StreamServer({ config, resolveKey, identity, limits, answers, events, applied, positions, clock, telemetry });
  const metrics = new NodeMetrics(
    {
      server: (config.serverIndex ?? 0) + 1,
      requests,
      answers,
      pipeline,
      limits: () => limits.stats(),
      sockets: () => stream.stats(),
      engines,
      tail,
      background,
      easeLambda: config.easeRefit.lambda,
      disk: () => diskUsage(dbs),
      storefrontUsage,
      storefrontQuota: config.storefrontQuota,
      logProblems: () => replicated?.problems() ?? [],
      deliveries: () => integrations.writes.counts.values(),
    },
    { supervised: config.serverIndex !== undefined },
  );
  await background.takeLease();
  const http = await startHttpServer(
    {
      config, clock, resolveKey, resolveKeyHash: keys.resolveHash, identity, limits, dashboardSessions,
      answers, events, positionToken: (position) => pipeline.positionToken(position), positions,
      catalog, customers, shopErasure, shops: shopStatus, settings, experiments, rules, stats: new Stats(engines), integrations, demo: demo?.storefront,
      node, metrics, telemetry, proxies: config.trustedProxies.length === 0 ? undefined : new TrustedProxies(config.trustedProxies),
    },
    stream.routes,
  ).catch(async (error: unknown) => {
    await stream.close(0); // its timers started with its routes
    await background.release(); // its renewals would outlive the databases startService closes now
    throw error;
  });
  // An erased shop (by this process or another: LogTail notices its log went) is forgotten here.
  const forgetShop = (shopId: string) => {
    engines.drop(shopId);
    keys.clear();
    stream.recheckKeys(); // its WebSocket connections end
    background.shopErased(shopId);
  };
  tail.onGone(forgetShop);
  background.start(replayed.erasures);
  integrations.start();
  tail.start(config.logPollMs);
  return running({ config, http, stream, dbs, engines, pipeline, shops, limits, shopLog, tail, metrics, replayed, replicated, demo, background, integrations, lock });
}

/** The service as its callers hold it, and its graceful stop. */
function running(parts: {
  config: Config;
  http: HttpServer;
  stream: StreamServer;
  dbs: Databases;
  engines: ShopEngines;
  pipeline: EventPipeline;
  shops: ShopStore;
  limits: RateLimits;
  shopLog: ShopLog;
  tail: LogTail;
  metrics: NodeMetrics;
  replayed: ReplayStats;
  replicated: ReplicatedLog | undefined;
  demo: OpenDemoStore | undefined;
  background: BackgroundWork;
  integrations: Integrations;
  lock: DataDirLock;
}): RunningService {
  const { config, http, stream, dbs, tail, replicated, demo, background, pipeline } = parts;
  let stopping: Promise<void> | undefined;
  return {
    config,
    port: http.port,
    http,
    stream,
    dbs,
    engines: parts.engines,
    pipeline,
    shops: parts.shops,
    limits: parts.limits,
    shopLog: parts.shopLog,
    tail,
    metrics: parts.metrics,
    replayed: parts.replayed,
    ...(replicated === undefined ? {} : { replicated }),
    demoKeys: demo?.keys,
    ...(demo?.seeded === undefined ? {} : { demoSeeded: demo.seeded }),
    feedPulls: parts.integrations.feeds,
    snapshot: () => background.snapshot(),
    pruneLog: () => background.pruneLog(),
    stop() {
      stopping ??= (async () => {
        tail.stop();
        parts.integrations.stop();
        await background.stop(); // ends a refit under way at once
        // One deadline for both: WebSocket acks first, then HTTP requests, within shutdownDrainMs.
        const deadline = performance.now() + config.shutdownDrainMs;
        await stream.close(config.shutdownDrainMs);
        await http.close(Math.max(0, deadline - performance.now()));
        pipeline.close();
        // The storage gets its own shutdownDrainMs: a write that never ends (a wedged LMDB write
        // thread) must not hold the exit for ever.
        const storage = (async () => {
          await background.finish();
          await replicated?.close();
          await closeDatabases(dbs);
        })();
        if (!(await doneWithin(storage, config.shutdownDrainMs))) throw new Error(`LMDB did not close within ${config.shutdownDrainMs} ms`);
        parts.lock.release();
      })();
      return stopping;
    },
  };
}
