// Opens a data dir's LMDB for one CLI command and closes it after, whatever happened.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openDatabases, type Databases } from '../store/database.js';
import { closeDatabases } from '../store/durable-commit.js';
import { ShopStore } from '../store/shop-store.js';
import { materializedThrough } from '../store/jetstream/log-follower.js';

export async function withDataDir<T>(dataDir: string, use: (dbs: Databases, shops: ShopStore) => Promise<T>): Promise<T> {
  const dbPath = path.join(dataDir, 'db');
  mkdirSync(dbPath, { recursive: true });
  const dbs = openDatabases(dbPath);
  try {
    // A node's copy of a replicated log: written here, it would hold what no other node has.
    if (materializedThrough(dbs) > 0) {
      throw new Error(`${dataDir} is a node's copy of a replicated log (PAIRWISE_NATS): change it through a running node instead (--url)`);
    }
    return await use(dbs, new ShopStore(dbs));
  } finally {
    await closeDatabases(dbs); // also after a commit that failed (a full disk), which root.close() alone would wait on for ever
  }
}
