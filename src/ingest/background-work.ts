// The work beside the requests: content warm-up in every process, and the work done once for every
// process of the data dir by the holder of the housekeeping lease (which another process takes over
// within seconds when its holder dies): snapshots, the log's retention, EASE refits, the dedup
// prune, the snapshot an erasure calls for, the sweep after a shop is erased. Past one machine, one
// process of the whole cluster refits (its fits reach every node through the log).
import type { Config } from '../config.js';
import type { EaseFit } from '../engine/ease/ease-model.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { Databases } from '../store/database.js';
import { Lease } from '../store/lease.js';
import { LeaseFlag } from '../store/lease-flag.js';
import { sweepErasedShop } from '../store/shop-erasure.js';
import type { ShopLog } from '../store/shop-log.js';
import type { Log } from '../observability/log.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import { ContentWarmer } from './content-warmer.js';
import { EaseRefits } from './ease-refits.js';
import type { LogApplier } from './log-applier.js';
import { LogRetention } from './log-retention.js';
import { SnapshotScheduler } from './snapshots.js';

const DEDUP_PRUNE_INTERVAL_MS = 3_600_000;
/** How long the housekeeping lease outlives its holder's last renewal. */
const HOUSEKEEPING_LEASE_MS = 4_000;

export interface BackgroundWorkOptions {
  config: Config;
  dbs: Databases;
  shopLog: ShopLog;
  engines: ShopEngines;
  applier: LogApplier;
  snapshotStore: SnapshotStore;
  /** Epoch ms. */
  clock: () => number;
  log: Log;
  /** Past one machine: the cluster-wide lease on EASE refits, held by one process of every node's. */
  clusterRefits?: { readonly held: boolean };
}

export class BackgroundWork {
  readonly #lease: Lease;
  readonly #refitFlag: LeaseFlag;
  readonly #refits: EaseRefits;
  readonly #snapshots: SnapshotScheduler;
  readonly #retention: LogRetention;
  readonly #warmer: ContentWarmer;
  readonly #store: SnapshotStore;
  readonly #options: BackgroundWorkOptions;
  #pruneTimer: NodeJS.Timeout | undefined;

  constructor(options: BackgroundWorkOptions) {
    const { config, dbs, shopLog, engines, applier, snapshotStore, clock, log, clusterRefits } = options;
    this.#options = options;
    this.#store = snapshotStore;
    this.#lease = new Lease(dbs, 'housekeeping', HOUSEKEEPING_LEASE_MS, Date.now, (held) => {
      if (config.serverIndex !== undefined) log(`server ${config.serverIndex + 1} (pid ${process.pid}) ${held ? 'took' : 'gave up'} the housekeeping lease (snapshots, EASE refits)`, { event: 'lease', lease: 'housekeeping', held });
    });
    // Whether a refit runs anywhere: /metrics may be answered by a process that is not the housekeeper.
    this.#refitFlag = new LeaseFlag(dbs, this.#lease, 'ease-refit-running');
    // A fit goes into the log: every process installs it at the same position.
    const publish = async (shopId: string, fit: EaseFit, fittedThrough: number) => {
      const position = await shopLog.publishEaseFit(shopId, engines.face(shopId).portableFit(fit), fittedThrough, clock());
      await applier.applyThrough(shopId, position);
    };
    this.#refits = new EaseRefits(engines, config.easeRefit, clock, log, {
      publish,
      mayRefit: () => this.#lease.held && (clusterRefits === undefined || clusterRefits.held),
      announce: (running) => void this.#refitFlag.set(running),
    });
    this.#snapshots = new SnapshotScheduler(engines, snapshotStore, clock, log, { logStart: (shopId) => shopLog.start(shopId) });
    this.#retention = new LogRetention(shopLog, snapshotStore, config.retentionMs, clock, log);
    this.#warmer = new ContentWarmer(engines);
  }

  /** Takes the housekeeping lease when it is free (before the server listens: a first process starts as the housekeeper). */
  async takeLease(): Promise<void> {
    await this.#lease.renew();
    this.#lease.start();
  }

  /** Starts everything; `replayedErasures`: erasures the start replayed after a snapshot, which still holds them. */
  start(replayedErasures: number): void {
    const { config, shopLog, clock, log } = this.#options;
    this.#pruneTimer = setInterval(() => {
      if (this.#lease.held) shopLog.pruneDedup(clock() - config.dedupTtlMs).catch((error: unknown) => log(`dedup prune failed: ${String(error)}`, { event: 'housekeeping-failed', level: 'error', error: String(error) }));
    }, DEDUP_PRUNE_INTERVAL_MS);
    this.#pruneTimer.unref();
    this.#snapshots.start(config.snapshotIntervalMs, () => this.#lease.held, () => this.#retention.pruneAll());
    // A snapshot older than an erasure (the process ended before it took the next one) is replaced now.
    if (replayedErasures > 0) this.customerErased();
    this.#warmer.start();
    this.#refits.start();
  }

  get housekeeper(): boolean {
    return this.#lease.held;
  }

  /** Bytes of the buffer snapshots are copied into, kept between snapshots. */
  get snapshotCopyBytes(): number {
    return this.#store.arenaBytes;
  }

  /** Whether an EASE refit is under way in any server process of the data dir. */
  get refitRunning(): boolean {
    return this.#refits.refitting || this.#refitFlag.up;
  }

  /**
   * An erasure is snapshotted at once, so that the snapshot on disk (one per shop) no longer holds
   * the customer: on the next turn (the applier is mid-way through the log when told), and again
   * after a snapshot already under way, which may have passed the shop.
   */
  customerErased(): void {
    if (!this.#lease.held) return;
    setImmediate(() => void this.#snapshots.takeAll().then(() => this.#snapshots.takeAll()));
  }

  /** An erased shop's snapshot being written meanwhile is removed by the housekeeper. */
  shopErased(shopId: string): void {
    if (!this.#lease.held) return;
    const { dbs, log } = this.#options;
    void this.#snapshots
      .takeAll()
      .then(() => sweepErasedShop(dbs, shopId))
      .catch((error: unknown) => log(`sweeping erased shop "${shopId}" failed: ${String(error)}`, { event: 'housekeeping-failed', level: 'error', shop: shopId, error: String(error) }));
  }

  /** Snapshots every shop with events since its last snapshot; resolves with how many. */
  snapshot(): Promise<number> {
    return this.#snapshots.takeAll();
  }

  /** Snapshots, then drops the log entries the retention allows; resolves with the positions dropped. */
  pruneLog(): Promise<number> {
    return this.#snapshots.takeAll().then(() => this.#retention.pruneAll());
  }

  /** Stops the timers and ends a refit under way at once. */
  async stop(): Promise<void> {
    clearInterval(this.#pruneTimer);
    this.#warmer.stop();
    await this.#refits.stop();
    this.#snapshots.stop();
  }

  /** The last snapshot (by the housekeeper), the lease given up, the snapshot writer closed: before the databases close. */
  async finish(): Promise<void> {
    if (this.#lease.held) await this.#snapshots.takeAll();
    await this.#lease.release();
    await this.#store.close();
  }

  /** Gives the lease up (a start that failed after taking it: its renewals would outlive the databases). */
  release(): Promise<void> {
    return this.#lease.release();
  }
}
