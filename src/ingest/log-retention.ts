// The retention of every shop's log (PAIRWISE_RETENTION_DAYS): after the housekeeping process's
// snapshots, each shop's entries older than the retention that its latest snapshot covers are
// dropped (store/log-retention.ts says what "older" is). Their effect stays in the models, and so
// in every snapshot after; a restart restores the snapshot and replays only what follows it. The
// customer erasures a snapshot covers are rewritten without the names they held, in the same round.
import type { Log } from '../observability/log.js';
import type { ShopLog } from '../store/shop-log.js';
import type { SnapshotStore } from '../store/snapshot-store.js';

export class LogRetention {
  constructor(
    readonly log: ShopLog,
    readonly snapshots: SnapshotStore,
    /** How long an entry is kept, in ms. */
    readonly retentionMs: number,
    /** Epoch ms. */
    readonly clock: () => number,
    readonly report: Log,
  ) {}

  /** Prunes every shop's log as far as its latest snapshot and the retention allow; resolves with the positions dropped. */
  async pruneAll(): Promise<number> {
    const before = this.clock() - this.retentionMs;
    let dropped = 0;
    for (const { shopId } of this.log.heads(true)) {
      const through = this.snapshots.position(shopId);
      if (through === undefined) continue;
      // Erasures the snapshot covers no longer name whom they erased (every process has applied them, or restores it).
      await this.log.forgetErasedNames(shopId, through);
      if (through < this.log.start(shopId)) continue;
      const pruned = await this.log.prune(shopId, through, before);
      if (pruned.positions > 0) {
        this.report(`shop "${shopId}": dropped log positions before ${pruned.start} (${pruned.positions} positions in ${pruned.entries} entries, older than the retention)`, { event: 'retention-prune', shop: shopId, start: pruned.start, positions: pruned.positions, entries: pruned.entries });
      }
      dropped += pruned.positions;
    }
    return dropped;
  }
}
