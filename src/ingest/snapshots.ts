// Takes snapshots of shops' models: every interval for shops with new events, and once more at
// shutdown, so a restart replays only the events after the latest one.
import type { Log } from '../observability/log.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { ShopEngines } from '../engine/shop-engines.js';

export class SnapshotScheduler {
  /** Log position of each shop's models at its last snapshot. */
  readonly #taken = new Map<string, number>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<number> | undefined;

  constructor(
    readonly engines: ShopEngines,
    readonly store: SnapshotStore,
    readonly clock: () => number,
    readonly log: Log,
    options: {
      /** Bytes copied per turn of the event loop (tests make it small to span many turns). */
      sliceBytes?: number;
      /** The first position a shop's log still holds (ShopLog.start; default 1). */
      logStart?: (shopId: string) => number;
    } = {},
  ) {
    this.sliceBytes = options.sliceBytes;
    this.logStart = options.logStart ?? (() => 1);
  }

  readonly sliceBytes: number | undefined;
  readonly logStart: (shopId: string) => number;

  /**
   * Takes every shop's snapshot each `intervalMs`, when `may()` says this process is the one that
   * does, and then runs `after` (the log's retention prune).
   */
  start(intervalMs: number, may: () => boolean = () => true, after: () => Promise<unknown> = async () => {}): void {
    this.#timer = setInterval(() => {
      if (may()) void this.takeAll().then(after).catch((error: unknown) => this.log(`housekeeping after the snapshots failed: ${String(error)}`, { event: 'housekeeping-failed', level: 'error', error: String(error) }));
    }, intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** Snapshots every shop with events since its last snapshot; resolves with how many. */
  takeAll(): Promise<number> {
    this.#running ??= this.#takeAll().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #takeAll(): Promise<number> {
    const started = performance.now();
    let taken = 0;
    for (const [shopId, engine] of this.engines.entries()) {
      const position = this.engines.position(shopId);
      // A shop held by a catch-up (LogApplier) is taken next time.
      if (position === 0 || this.#taken.get(shopId) === position || this.engines.changesWait(shopId) !== undefined) continue;
      // Models behind what the log still holds (this process had not applied entries pruned since)
      // are restored from the latest snapshot on their next apply; a snapshot of them would go back.
      if (position + 1 < this.logStart(shopId)) continue;
      // The models stay as they are at `position` until the copy is done: events committed
      // meanwhile wait to be applied (and acknowledged), so read-your-writes holds throughout.
      const release = this.engines.hold(shopId);
      try {
        let copy;
        try {
          const takenAt = this.clock();
          const state = await engine.snapshotInTurns(this.store.pause);
          copy = await this.store.copy({ position, takenAt, state }, this.sliceBytes);
        } finally {
          release();
        }
        await this.store.write(shopId, copy);
        this.#taken.set(shopId, position);
        taken++;
      } catch (error) {
        this.log(`snapshot of shop "${shopId}" failed: ${(error as Error).message}`, { event: 'snapshot-failed', level: 'error', shop: shopId, error: (error as Error).message });
      }
    }
    if (taken > 0) {
      const seconds = Math.round(performance.now() - started) / 1000;
      this.log(`snapshots of ${taken} shop${taken === 1 ? '' : 's'} taken in ${seconds} s`, { event: 'snapshot', shops: taken, seconds });
    }
    return taken;
  }
}
