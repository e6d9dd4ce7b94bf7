// How this server process and its data dir are doing, for the operator (GET /healthz, /metrics):
// how far it is behind the log, whether the log takes writes, what the data dir takes on disk,
// what background work holds, and what the storefront budget refused.
import type { Health } from '../api/responses.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { LogTail } from '../ingest/log-tail.js';
import type { DiskUsage } from '../store/disk-usage.js';

/** Memory and duties that background work holds outside the models, for /metrics. */
export interface BackgroundWork {
  /** Bytes of the buffer snapshots are copied into, kept between snapshots (0 until the first). */
  readonly snapshotCopyBytes: number;
  /** Whether an EASE refit is under way in any server process of the data dir (its matrix, 4n² bytes, is held meanwhile). */
  readonly refitRunning: boolean;
  /** Whether this process holds the housekeeping lease (it takes the snapshots and makes the EASE fits). */
  readonly housekeeper: boolean;
}

export interface NodeStatusOptions {
  /** What other processes wrote, followed: how far behind this process is. */
  tail: LogTail;
  pipeline: EventPipeline;
  /** What the data dir takes on disk (store/disk-usage.ts). */
  disk: () => DiskUsage;
  /** What keeps the log from taking writes now (a replicated log without NATS or quorum); empty: nothing. */
  logProblems: () => string[];
  background: BackgroundWork;
}

export class NodeStatus {
  readonly background: BackgroundWork;
  readonly #options: NodeStatusOptions;

  constructor(options: NodeStatusOptions) {
    this.background = options.background;
    this.#options = options;
  }

  /** GET /healthz: which process answered and how far it is behind the log (per shop only in /metrics). */
  health(): Health {
    const { shops, behind } = this.#options.tail.lag();
    const problems = this.#options.logProblems();
    return problems.length === 0 ? { status: 'ok', pid: process.pid, shops, behind } : { status: 'degraded', problems, pid: process.pid, shops, behind };
  }

  /** The shop's log as this process sees it: its head and first position, what is applied, and for how long it has been behind. */
  shopLog(shopId: string): { head: number; start: number; applied: number; behindMs: number } {
    return this.#options.tail.shopLag(shopId);
  }

  disk(): DiskUsage {
    return this.#options.disk();
  }

  /** Events of the shop's public key this process refused since start: the day's storefront budget was spent. */
  quotaRefusals(shopId: string): number {
    return this.#options.pipeline.quotaRefusals.get(shopId) ?? 0;
  }
}
