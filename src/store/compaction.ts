// Rewrites a data dir's LMDB file as a compacted copy of itself: LMDB writes a changed page to a new
// place and frees the old one for reuse without overwriting it, so the bytes of what was erased (a
// customer's events, an erasure's names) or pruned stay in the file's free pages until reused. The
// copy holds only the pages in use (lmdb-js's backup with compaction, LMDB's mdb_env_copy2 with
// MDB_CP_COMPACT), and replaces the file. No server may use the data dir meanwhile: its lock is taken.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import { lockDataDir } from './data-dir-lock.js';

const DATA_FILE = 'data.mdb';
/** LMDB's lock file (readers, the last transaction): made anew by the next open of the new file. */
const LMDB_LOCK_FILE = 'lock.mdb';

/** Compacts the LMDB environment in `dbPath` (the data dir's db/ folder) in place; resolves with the file's size before and after, in bytes. */
export async function compactDatabase(dbPath: string, dataDir: string): Promise<{ before: number; after: number }> {
  const dataFile = path.join(dbPath, DATA_FILE);
  if (!existsSync(dataFile)) throw new Error(`${dataDir} holds no database (no ${dataFile})`);
  const before = statSync(dataFile).size;
  // Beside the file, on its file system: the rename that replaces it is atomic.
  const copyDir = `${dbPath}.compacting`;
  rmSync(copyDir, { recursive: true, force: true });
  mkdirSync(copyDir);
  const root = open({ path: dbPath, maxDbs: 32 });
  let lock;
  try {
    lock = lockDataDir(root, dbPath, dataDir); // a running server refuses it; a server started meanwhile is refused
    await root.backup(copyDir, true);
  } catch (error) {
    rmSync(copyDir, { recursive: true, force: true });
    throw error;
  } finally {
    await root.close();
  }
  try {
    renameSync(path.join(copyDir, DATA_FILE), dataFile);
    rmSync(path.join(dbPath, LMDB_LOCK_FILE), { force: true });
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
    lock.release();
  }
  return { before, after: statSync(dataFile).size };
}
