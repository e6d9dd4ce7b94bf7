// Drops the oldest entries of a shop's log once a snapshot covers them and they are older than the
// retention. The log stays one contiguous run of positions, [start, head]: `logStarts` says where
// it starts, so a read from before it is known to be pruned, never taken for a gap. An append of
// events is as old as its newest event's own time (`timestamp`, which an import may set in the
// past); a change, as the time it was appended (`at`). The dropped prefix ends at the first entry
// that is not both covered and old.
import type { Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { unindexEvents } from './customer-index.js';
import { unindexSessions } from './session-index.js';
import { isChange, type StoredLogEntry } from './log-entry.js';

/**
 * Positions examined (and at most dropped) per write transaction, which decodes their entries on
 * the event loop: ≤ 7 ms a transaction for events with ~300 bytes of metadata (10,000: 23 ms).
 */
export const PRUNE_SLICE = 2_000;

/** What a prune dropped, and where the shop's log now starts. */
export interface Pruned {
  entries: number;
  positions: number;
  /** The first position the log holds now (head + 1 when it holds none). */
  start: number;
}

/** The first position the shop's log holds: 1 until entries were dropped. */
export function logStart(dbs: Databases, shopId: string): number {
  return dbs.logStarts.get(shopId) ?? 1;
}

/** The entry's time (epoch ms): its newest event's, or the change's append time. */
function entryTime(entry: StoredLogEntry): number {
  if (isChange(entry)) return entry.at;
  let newest = -Infinity;
  for (const event of entry.events) if (event.timestamp > newest) newest = event.timestamp;
  return newest;
}

/**
 * Drops the entries at the start of the shop's log that end at or before `through` (a snapshot's
 * position) and are older than `before` (epoch ms), a slice of positions per commit, the event
 * loop free between commits.
 */
export async function pruneLog(dbs: Databases, shopId: string, through: number, before: number, slice = PRUNE_SLICE): Promise<Pruned> {
  const pruned: Pruned = { entries: 0, positions: 0, start: logStart(dbs, shopId) };
  for (;;) {
    const step = await pruneSlice(dbs, shopId, through, before, slice);
    pruned.entries += step.entries;
    pruned.positions += step.positions;
    pruned.start = step.start;
    if (!step.more) return pruned;
  }
}

/** One commit of pruneLog. Read inside its write transaction: the start and entries as they are now, whichever process wrote them. */
function pruneSlice(dbs: Databases, shopId: string, through: number, before: number, slice: number): Promise<Pruned & { more: boolean }> {
  return commitDurably(dbs, () => {
    const start = logStart(dbs, shopId);
    // No further than the snapshot as it is now: another process may have replaced it since `through` was read.
    through = Math.min(through, dbs.snapshotPositions.get(shopId) ?? through);
    const dropped: [[string, number], StoredLogEntry][] = [];
    let next = start;
    let more = false;
    for (const { key, value } of dbs.log.getRange({ start: [shopId, start], end: [shopId, through + 1] })) {
      const last = isChange(value) ? key[1] : key[1] + value.events.length - 1;
      if (last > through || entryTime(value) >= before) break;
      if (next - start >= slice) {
        more = true;
        break;
      }
      dropped.push([key, value]);
      next = last + 1;
    }
    // Removed once the cursor is done with them, with the customer and session index rows of their events.
    for (const [key, entry] of dropped) {
      dbs.log.remove(key);
      if (isChange(entry)) continue;
      unindexEvents(dbs, shopId, key[1], entry.events);
      unindexSessions(dbs, shopId, key[1], entry.events);
    }
    if (next > start) dbs.logStarts.put(shopId, next);
    return { entries: dropped.length, positions: next - start, start: next, more };
  });
}
