// Indexes what a data dir's log held before an index of it existed (a version without it wrote
// those entries), once: every shop's log read entry by entry, BACKFILL_BATCH rows a commit, then the
// data dir marked done under the index's meta key. Idempotent (a process that ends half-way, or two
// that run it at once, write the same rows).
import type { Database, Key } from 'lmdb';
import { LAST_POSITION, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import type { StoredLogEntry } from './log-entry.js';

/** Index rows written per commit of a backfill. */
const BACKFILL_BATCH = 10_000;

/** One row to write: its database (any of the indexes, each keyed its own way), key and value. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type IndexRow = [Database<number, any>, Key, number];

/** Resolves with the rows written (0 when the data dir was marked done already). */
export async function backfillIndex(
  dbs: Databases,
  /** The meta key that says the whole log is indexed. */
  doneKey: string,
  /** The rows of the log entry at `first` (events or a change). */
  rowsOf: (shopId: string, first: number, entry: StoredLogEntry) => IndexRow[],
): Promise<number> {
  if (dbs.meta.get(doneKey) !== undefined) return 0;
  let written = 0;
  let rows: IndexRow[] = [];
  const flush = async () => {
    const batch = rows;
    rows = [];
    if (batch.length > 0) await commitDurably(dbs, () => { for (const [db, key, value] of batch) db.put(key, value); });
    written += batch.length;
  };
  for (const { key: shopId } of [...dbs.logHeads.getRange()]) {
    for (const { key, value } of dbs.log.getRange({ start: [shopId, 0], end: [shopId, LAST_POSITION] })) {
      rows.push(...rowsOf(shopId, key[1], value));
      if (rows.length >= BACKFILL_BATCH) await flush();
    }
  }
  await flush();
  await commitDurably(dbs, () => dbs.meta.put(doneKey, 'v1'));
  return written;
}
