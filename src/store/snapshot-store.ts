// The latest snapshot of each shop's models, so a restart replays only the events after it.
import { commitDurably, type Databases, type SnapshotRecord } from './database.js';

export class SnapshotStore {
  constructor(readonly dbs: Databases) {}

  get(shopId: string): SnapshotRecord | undefined {
    return this.dbs.snapshots.get(shopId);
  }

  put(shopId: string, record: SnapshotRecord): Promise<void> {
    return commitDurably(this.dbs.root, () => {
      this.dbs.snapshots.put(shopId, record);
    });
  }
}
