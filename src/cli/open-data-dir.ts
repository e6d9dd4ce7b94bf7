// Opens a data dir's LMDB for one CLI command and closes it after, whatever happened.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openDatabases, type Databases } from '../store/database.js';
import { closeDatabases } from '../store/durable-commit.js';
import { ShopStore } from '../store/shop-store.js';

export async function withDataDir<T>(dataDir: string, use: (dbs: Databases, shops: ShopStore) => Promise<T>): Promise<T> {
  const dbPath = path.join(dataDir, 'db');
  mkdirSync(dbPath, { recursive: true });
  const dbs = openDatabases(dbPath);
  try {
    return await use(dbs, new ShopStore(dbs));
  } finally {
    await closeDatabases(dbs); // also after a commit that failed (a full disk), which root.close() alone would wait on for ever
  }
}
