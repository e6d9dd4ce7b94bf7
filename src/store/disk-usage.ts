// What the data dir's LMDB takes on disk, for /metrics: the data file's size, the pages its
// databases' trees use (the rest of the file is free pages that LMDB reuses before it grows the
// file), the log's share, and the room left on the file system. Each figure is a stat call on the
// file, the file system or a database, never a scan.
import { statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { logEntryCount, type Databases } from './database.js';

export interface DiskUsage {
  /** Bytes of the data file (data.mdb). */
  fileBytes: number;
  /** Bytes of the pages in use by every database's tree (branch, leaf and overflow pages). */
  usedBytes: number;
  /** Bytes of the pages of the shop logs (every shop's together). */
  logBytes: number;
  /** Entries of every shop's log together (an append of events or one change each). */
  logEntries: number;
  /** Bytes the file system holding the data dir has left for this process's user (a full disk refuses writes: docs/operations.md). */
  freeBytes: number;
}

interface TreeStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  entryCount: number;
}

function pages(stats: TreeStats): number {
  return stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages;
}

function freeBytes(path: string): number {
  const { bavail, bsize } = statfsSync(path);
  return bavail * bsize;
}

export function diskUsage(dbs: Databases): DiskUsage {
  const root = dbs.root.getStats() as TreeStats & { free?: TreeStats };
  const log = dbs.log.getStats() as TreeStats;
  // The root tree names the databases; the free list is a tree too; two meta pages head the file.
  let used = pages(root) + (root.free === undefined ? 0 : pages(root.free)) + 2;
  // Every named database, whichever the data dir has (the root is counted above).
  for (const db of Object.values(dbs) as unknown[]) {
    if (db === dbs.root || typeof (db as { getStats?: unknown } | null)?.getStats !== 'function') continue;
    used += pages((db as { getStats(): TreeStats }).getStats());
  }
  return {
    fileBytes: statSync(join(dbs.path, 'data.mdb')).size,
    usedBytes: used * root.pageSize,
    logBytes: pages(log) * root.pageSize,
    logEntries: logEntryCount(dbs),
    freeBytes: freeBytes(dbs.path),
  };
}
