// The latest snapshot of each shop's models, so a restart replays only the events after it.
import { asBinary } from 'lmdb';
import { commitDurably, type Databases, type SnapshotRecord } from './database.js';

export class SnapshotStore {
  constructor(readonly dbs: Databases) {}

  get(shopId: string): SnapshotRecord | undefined {
    return this.dbs.snapshots.get(shopId);
  }

  put(shopId: string, record: SnapshotRecord): Promise<void> {
    // Encoded now, in the caller's turn: the state's typed-array bytes are views of the live models,
    // and LMDB runs the transaction callback later, after further events may have changed them.
    const encoded = asBinary(encoderOf(this.dbs.snapshots).encode(record));
    return commitDurably(this.dbs.root, () => {
      this.dbs.snapshots.put(shopId, encoded as unknown as SnapshotRecord);
    });
  }
}

/** The database's own value encoder (lmdb-js sets it on every database; its typings omit it). */
function encoderOf(db: object): { encode(value: unknown): Uint8Array } {
  return (db as { encoder: { encode(value: unknown): Uint8Array } }).encoder;
}
