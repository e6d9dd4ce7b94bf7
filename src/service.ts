// Composition of the whole service: storage → replay → bootstrap and demo shops → HTTP server.
// main.ts runs it for real; tests run it in-process on port 0 with a temp data dir.
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Config } from './config.js';
import { defaultDemoDir } from './demo/demo-files.js';
import { createDemoStorefront } from './demo/demo-storefront.js';
import { seedDemoStore, type DemoKeys, type DemoSeeded } from './demo/seed-demo-store.js';
import { Answers } from './app/answers.js';
import { EventTracking } from './app/track-events.js';
import type { Principal } from './app/principal.js';
import { cachedResolver, type CachedResolver } from './transport/auth.js';
import { RateLimits } from './transport/rate-limits.js';
import type { MonotonicClock } from './limits/monotonic-clock.js';
import { startHttpServer, type HttpServer } from './http/server.js';
import { CatalogUpdates } from './app/catalog-updates.js';
import { ContentWarmer } from './ingest/content-warmer.js';
import { EaseRefits } from './ingest/ease-refits.js';
import type { EaseFit } from './engine/ease/ease-model.js';
import { toPortable } from './engine/ease/portable-fit.js';
import { Lease } from './store/lease.js';
import { LeaseFlag } from './store/lease-flag.js';
import { EventPipeline } from './ingest/event-pipeline.js';
import { Experiments } from './app/experiments.js';
import { Rules } from './app/rules.js';
import { RuleStore } from './store/rule-store.js';
import { ShopSettings } from './app/shop-settings.js';
import { ShopStatus } from './app/shop-status.js';
import { Stats } from './app/stats.js';
import { NodeStatus } from './app/node-status.js';
import { LogApplier } from './ingest/log-applier.js';
import { LogListeners } from './ingest/log-listeners.js';
import { LogTail } from './ingest/log-tail.js';
import { PositionWaits } from './app/position-waits.js';
import { LogRetention } from './ingest/log-retention.js';
import { replay, restoreShop, type ReplayStats } from './ingest/replay.js';
import { ShopEngines } from './engine/shop-engines.js';
import { mintCustomerToken, signingKey } from './api/customer-token.js';
import { CustomerIdentity } from './app/customer-identity.js';
import { SnapshotScheduler } from './ingest/snapshots.js';
import { CatalogStore } from './store/catalog-store.js';
import { CustomerStore } from './store/customer-store.js';
import { backfillCustomerIndex } from './store/customer-index.js';
import { backfillSessionIndex } from './store/session-index.js';
import { CustomerRebuild } from './ingest/customer-rebuild.js';
import { CustomerData } from './app/customer-data.js';
import { ShopErasure } from './app/shop-erasure.js';
import { sweepErasedShop } from './store/shop-erasure.js';
import { lockDataDir, type DataDirLock } from './store/data-dir-lock.js';
import { checkLogLayout, ensureLogId, openDatabases, type ApiKeyRecord, type Databases } from './store/database.js';
import { closeDatabases, type Committer } from './store/durable-commit.js';
import { diskUsage } from './store/disk-usage.js';
import { ExperimentStore } from './store/experiment-store.js';
import { LmdbShopLog, type ShopLog } from './store/shop-log.js';
import { openReplicatedLog, restoreNodeBackup, type ReplicatedLog } from './store/jetstream/replicated-log.js';
import { ShopStore } from './store/shop-store.js';
import { SnapshotStore } from './store/snapshot-store.js';
import { DashboardSessions, IDLE_MS } from './dashboard/sessions.js';
import { LmdbSessionTable } from './store/dashboard-session-table.js';
import { StreamServer } from './ws/stream-server.js';

export interface ServiceOptions {
  /** Epoch ms for event times and decay; tests may pin it. */
  clock?: () => number;
  log?: (line: string) => void;
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
  /** The replicated log (PAIRWISE_NATS), when there is one. */
  readonly replicated?: ReplicatedLog;
  /** What the start found in the data dir and rebuilt the models from. */
  readonly replayed: ReplayStats;
  readonly demoKeys?: DemoKeys;
  /** What this start seeded into a new demo store. */
  readonly demoSeeded?: DemoSeeded;
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

const DEDUP_PRUNE_INTERVAL_MS = 3_600_000;
/** How long the housekeeping lease outlives its holder's last renewal. */
const HOUSEKEEPING_LEASE_MS = 4_000;

/** `now` (epoch ms, the service's clock) dates the changes it appends: their age counts for the log's retention. */
async function bootstrapShop(config: Config, shops: ShopStore, log: (line: string) => void, now: number): Promise<void> {
  const boot = config.bootstrap;
  if (boot === undefined) return;
  if (await shops.ensureShop(boot.shopId, {}, now)) log(`created shop "${boot.shopId}"`);
  if (boot.publicKey) await shops.addKey(boot.shopId, boot.publicKey, 'PAIRWISE_PUBLIC_KEY', now);
  if (boot.secretKey) await shops.addKey(boot.shopId, boot.secretKey, 'PAIRWISE_SECRET_KEY', now);
  if (boot.signingSecret) await shops.addSigningSecret(boot.shopId, boot.signingSecret, now);
}

/** The caller a stored key record names, with its shop's current settings. */
function principalOf(shops: ShopStore, record: ApiKeyRecord | undefined): Principal | undefined {
  if (record === undefined) return undefined;
  const shop = shops.getShop(record.shopId);
  return {
    shopId: record.shopId,
    kind: record.kind,
    allowedOrigins: shop?.allowedOrigins ?? [],
    customerKeys: (shop?.signingSecrets ?? []).map(signingKey),
    ...(shop?.appProxySecret ? { appProxySecret: shop.appProxySecret } : {}),
  };
}

function keyResolver(shops: ShopStore, applied: LogListeners): CachedResolver {
  const cached = cachedResolver((key) => principalOf(shops, shops.findKey(key)));
  // Revocations, origins and signing secrets apply at once, whichever process wrote them.
  applied.onKeysChanged(() => cached.clear());
  return cached;
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
export async function startService(config: Config, options: ServiceOptions = {}): Promise<RunningService> {
  // A new node of a replicated log starts from the latest node backup (a supervisor's servers: it did).
  if (config.nats !== undefined && config.serverIndex === undefined) await restoreNodeBackup(config.nats, config.dbPath, options.log ?? ((line) => console.log(line)));
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
async function compose(config: Config, options: ServiceOptions, dbs: Databases, lock: DataDirLock, opened: (() => Promise<void>)[]): Promise<RunningService> {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? ((line: string) => console.log(line));
  checkLogLayout(dbs);
  const local = new LmdbShopLog(dbs, config.storefrontQuota);
  // Past one machine the log is a JetStream stream, materialized into this data dir's LMDB before the
  // models are built from it; on one machine it is the data dir's LMDB.
  let replicated: ReplicatedLog | undefined;
  if (config.nats !== undefined) {
    replicated = await openReplicatedLog(config.nats, dbs, local, config.retentionMs, log, `pairwise ${hostname()} pid ${process.pid}`);
    opened.push(() => replicated!.close());
    await replicated.caughtUp(log);
  }
  const shopLog: ShopLog = replicated?.log ?? local;
  const logId = replicated?.logId ?? (await ensureLogId(dbs));
  const indexed = await backfillCustomerIndex(dbs);
  if (indexed > 0) log(`indexed ${indexed} events of customers stored before the customer index existed`);
  const sessionRows = await backfillSessionIndex(dbs);
  if (sessionRows > 0) log(`indexed the sessions of the log entries stored before the session index existed (${sessionRows} rows)`);
  const engines = new ShopEngines(config.engine);
  const applied = new LogListeners();
  const catalogStore = new CatalogStore(dbs, shopLog);
  const snapshotStore = new SnapshotStore(dbs, undefined, config.snapshotKeepBufferBytes);
  // Models that lack entries pruned since they were last applied start again from the latest snapshot.
  const restore = (shopId: string) => restoreShop(shopId, catalogStore, snapshotStore, engines).snapshot;
  const customerStore = new CustomerStore(dbs, shopLog);
  // An evicted customer is refilled from their latest events before their next event or answer.
  const rebuild = new CustomerRebuild(customerStore);
  const applier = new LogApplier(shopLog, engines, applied, undefined, undefined, restore, rebuild);
  // Every write of this process is applied before it is answered, with whatever precedes it in the log.
  const applyThrough = (shopId: string, position: number) => applier.applyThrough(shopId, position);
  const shops = new ShopStore(dbs, shopLog, applyThrough);
  const replayed = replay(catalogStore, shopLog, snapshotStore, engines, undefined, rebuild);
  const pipeline = new EventPipeline(shopLog, applier, config.dedupTtlMs, logId);
  const catalog = new CatalogUpdates(catalogStore, engines, applier);
  const customers = new CustomerData(customerStore, engines, applier);
  const tail = new LogTail(shopLog, engines, applier, log);
  const positions = new PositionWaits(shopLog, engines, tail, config.afterWaitMs, logId, replicated !== undefined);
  // What this node's follower materializes (other nodes' writes) is applied here at once; other
  // server processes of the node hear of it from the supervisor, as of any commit.
  if (replicated !== undefined) local.onCommitted((shopId) => void tail.check(shopId));
  applied.onPosition(positions.reached);

  const experiments = new Experiments(new ExperimentStore(dbs, shopLog, applyThrough), engines);
  const rules = new Rules(new RuleStore(dbs, shopLog, applyThrough), engines);
  applied.onExperimentChanged((shopId, record) => experiments.applied(shopId, record));

  await bootstrapShop(config, shops, log, clock());
  let demoKeys: DemoKeys | undefined;
  let demoSeeded: DemoSeeded | undefined;
  let demo: ReturnType<typeof createDemoStorefront> | undefined;
  if (config.demo) {
    const demoDir = options.demoDir ?? defaultDemoDir();
    const seedDeps = { shops, catalog, pipeline, experiments, gidPlatform: config.engine.gidPlatform };
    ({ keys: demoKeys, seeded: demoSeeded } = await seedDemoStore(seedDeps, demoDir, path.join(config.dataDir, 'demo-keys.json'), clock(), log));
    const { shopId } = demoKeys;
    const signingSecret = shops.getShop(shopId)?.signingSecrets?.[0] ?? (await shops.rotateSigningSecret(shopId));
    // Tokens for an hour, minted per page as a merchant's theme would (the page is rendered per visit).
    demo = createDemoStorefront({
      demoDir,
      publicKey: demoKeys.publicKey,
      customerToken: (customerId) => mintCustomerToken(signingSecret, shopId, customerId, Math.floor(clock() / 1000) + 3600),
      catalog: () => engines.get(shopId).catalog,
    });
  }
  const keys = keyResolver(shops, applied);
  const resolveKey = keys.resolve;
  const identity = new CustomerIdentity();
  const limits = new RateLimits(config.rateLimits, config.host, config.trustedProxies, options.monotonic);
  // Not while a snapshot copies the shop's models (they must not change): that answer is the session's.
  const refill = (shopId: string, customerId: string) => {
    if (engines.changesWait(shopId) === undefined) rebuild.ensure(shopId, engines.get(shopId), customerId, engines.position(shopId) + 1);
  };
  const answers = new Answers(engines, config.answerCache, identity, experiments, refill);
  const events = new EventTracking(pipeline, identity, engines, limits);
  // Its listeners of applied changes come after the key cache's: a key check sees the cache cleared.
  const stream = new StreamServer({ config, resolveKey, identity, limits, answers, events, applied, positions, clock });
  const dashboardSessions = new DashboardSessions(new LmdbSessionTable(dbs, IDLE_MS), IDLE_MS);
  // Dashboard traffic is light: a session's key is looked up by hash each time, uncached.
  const resolveKeyHash = (hash: string) => principalOf(shops, dbs.apiKeys.get(hash));
  const settings = new ShopSettings(shops, engines);
  const storefrontUsage = (shopId: string) => local.storefront.usage(shopId, clock());
  const shopStatus = new ShopStatus({ shops, engines, settings, engineConfig: config.engine, lambda: config.easeRefit.lambda, storefrontQuota: config.storefrontQuota, storefrontUsage });
  const stats = new Stats(engines);
  const shopErasure = new ShopErasure((shopId) => shopLog.eraseShop(shopId), (shopId) => forgetShop(shopId));
  // Work done once for every process of the data dir (snapshots, EASE refits, the dedup prune): by
  // the holder of this lease, which another process takes over within seconds when its holder dies.
  const housekeeping = new Lease(dbs, 'housekeeping', HOUSEKEEPING_LEASE_MS, Date.now, (held) => {
    if (config.serverIndex !== undefined) log(`server ${config.serverIndex + 1} (pid ${process.pid}) ${held ? 'took' : 'gave up'} the housekeeping lease (snapshots, EASE refits)`);
  });
  await housekeeping.renew();
  housekeeping.start();
  // A fit goes into the log: every process installs it at the same position.
  const publishFit = async (shopId: string, fit: EaseFit, fittedThrough: number) => {
    const position = await shopLog.publishEaseFit(shopId, toPortable(engines.get(shopId).catalog, fit), fittedThrough, clock());
    await applier.applyThrough(shopId, position);
  };
  // Whether a refit runs anywhere: /metrics may be answered by a process that is not the housekeeper.
  const refitFlag = new LeaseFlag(dbs, housekeeping, 'ease-refit-running');
  // Past one machine, one process of the whole cluster refits (its fits reach every node through the log).
  const refits = new EaseRefits(engines, config.easeRefit, clock, log, undefined, publishFit, () => housekeeping.held && (replicated === undefined || replicated.refitLease.held), (running) => void refitFlag.set(running));
  const background = {
    get snapshotCopyBytes() {
      return snapshotStore.arenaBytes;
    },
    get refitRunning() {
      return refits.refitting || refitFlag.up;
    },
    get housekeeper() {
      return housekeeping.held;
    },
  };
  const disk = () => diskUsage(dbs);
  const logProblems = () => replicated?.problems() ?? [];
  const node = new NodeStatus({ tail, pipeline, disk, logProblems, background });
  const positionToken = (position: number) => pipeline.positionToken(position);
  const http = await startHttpServer({ config, resolveKey, resolveKeyHash, identity, limits, answers, events, positionToken, catalog, customers, shopErasure, positions, shops: shopStatus, node, clock, demo, experiments, rules, settings, stats, dashboardSessions }, stream.routes).catch(async (error: unknown) => {
    await stream.close(0); // its timers started with its routes
    await housekeeping.release(); // its renewals would outlive the databases startService closes now
    throw error;
  });
  const pruneTimer = setInterval(() => {
    if (housekeeping.held) shopLog.pruneDedup(clock() - config.dedupTtlMs).catch((error: unknown) => log(`dedup prune failed: ${String(error)}`));
  }, DEDUP_PRUNE_INTERVAL_MS);
  pruneTimer.unref();
  const snapshots = new SnapshotScheduler(engines, snapshotStore, clock, log, undefined, (shopId) => shopLog.start(shopId));
  const retention = new LogRetention(shopLog, snapshotStore, config.retentionMs, clock, log);
  snapshots.start(config.snapshotIntervalMs, () => housekeeping.held, () => retention.pruneAll());
  // An erasure is snapshotted at once, so the snapshot on disk (one per shop) no longer holds the
  // customer: on the next turn (the applier is mid-way through the log here), and again after a
  // snapshot already under way, which may have passed the shop.
  // An erased shop (by this process or another: LogTail notices its log went) is forgotten here; the
  // housekeeper also removes a snapshot of it that was being written meanwhile.
  const forgetShop = (shopId: string) => {
    engines.drop(shopId);
    keys.clear();
    stream.recheckKeys(); // its WebSocket connections end
    if (housekeeping.held) void snapshots.takeAll().then(() => sweepErasedShop(dbs, shopId)).catch((error: unknown) => log(`sweeping erased shop "${shopId}" failed: ${String(error)}`));
  };
  tail.onGone(forgetShop);
  const snapshotErasure = () => setImmediate(() => void snapshots.takeAll().then(() => snapshots.takeAll()));
  applied.onCustomerErased(() => {
    if (housekeeping.held) snapshotErasure();
  });
  // A snapshot older than an erasure (the process ended before it took the next one) is replaced now.
  if (replayed.erasures > 0 && housekeeping.held) snapshotErasure();
  const warmer = new ContentWarmer(engines);
  warmer.start();
  refits.start();
  tail.start(config.logPollMs);

  let stopping: Promise<void> | undefined;
  return {
    config,
    port: http.port,
    http,
    stream,
    dbs,
    engines,
    pipeline,
    shops,
    limits,
    shopLog,
    tail,
    replayed,
    ...(replicated === undefined ? {} : { replicated }),
    demoKeys,
    ...(demoSeeded === undefined ? {} : { demoSeeded }),
    snapshot: () => snapshots.takeAll(),
    pruneLog: () => snapshots.takeAll().then(() => retention.pruneAll()),
    stop() {
      stopping ??= (async () => {
        clearInterval(pruneTimer);
        tail.stop();
        warmer.stop();
        await refits.stop(); // ends a refit under way at once
        // One deadline for both: WebSocket acks first, then HTTP requests, within shutdownDrainMs.
        const deadline = performance.now() + config.shutdownDrainMs;
        await stream.close(config.shutdownDrainMs);
        await http.close(Math.max(0, deadline - performance.now()));
        pipeline.close();
        snapshots.stop();
        // The storage gets its own shutdownDrainMs: a write that never ends (a wedged LMDB write
        // thread) must not hold the exit for ever.
        const storage = (async () => {
          if (housekeeping.held) await snapshots.takeAll();
          await housekeeping.release();
          await snapshotStore.close();
          await replicated?.close();
          await closeDatabases(dbs);
        })();
        if (!(await doneWithin(storage, config.shutdownDrainMs))) throw new Error(`LMDB did not close within ${config.shutdownDrainMs} ms`);
        lock.release();
      })();
      return stopping;
    },
  };
}
