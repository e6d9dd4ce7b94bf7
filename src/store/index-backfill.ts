// Indexes the events a data dir's log held before an index of them existed (a version without it
// wrote them), once: every shop's log read entry by entry, BACKFILL_BATCH rows a commit, then the
// data dir marked done under the index's meta key. Idempotent (a process that ends half-way, or two
// that run it at once, write the same rows).
import type { Database, Key } from 'lmdb';
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { isChange } from './log-entry.js';

/** Index rows written per commit of a backfill. */
const BACKFILL_BATCH = 10_000;

/** Resolves with the rows written (0 when the data dir was marked done already). */
export async function backfillIndex<K extends Key>(
  dbs: Databases,
  /** The meta key that says the whole log is indexed. */
  doneKey: string,
  index: Database<number, K>,
  /** The rows of the entry at `first` holding `events`: key and value. */
  rowsOf: (shopId: string, first: number, events: readonly TrackedEvent[]) => [K, number][],
): Promise<number> {
  if (dbs.meta.get(doneKey) !== undefined) return 0;
  let written = 0;
  let rows: [K, number][] = [];
  const flush = async () => {
    const batch = rows;
    rows = [];
    if (batch.length > 0) await commitDurably(dbs, () => { for (const [key, value] of batch) index.put(key, value); });
    written += batch.length;
  };
  for (const { key: shopId } of [...dbs.logHeads.getRange()]) {
    for (const { key, value } of dbs.log.getRange({ start: [shopId, 0], end: [shopId, LAST_POSITION] })) {
      if (isChange(value)) continue;
      rows.push(...rowsOf(shopId, key[1], value.events));
      if (rows.length >= BACKFILL_BATCH) await flush();
    }
  }
  await flush();
  await commitDurably(dbs, () => dbs.meta.put(doneKey, 'v1'));
  return written;
}
