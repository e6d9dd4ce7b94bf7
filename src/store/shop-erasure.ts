// Erases a shop from the data dir: every row of it in every database (its log, head and start, dedup and
// customer and session indexes, erasures not yet rewritten, catalog, record, keys, snapshot and its position, experiments, rules, EASE fits, storefront usage, dashboard sessions
// signed in with its keys), in one durable commit. Leases are the data dir's, not a shop's.
// Work: the shop's rows, plus one scan of the keys and dashboard sessions (a few per shop).
import type { Database, Key } from 'lmdb';
import { LAST_POSITION, shopRange, snapshotPartRange, type Databases } from './database.js';
import { commitDurably, type Alongside } from './durable-commit.js';

/** Past every customerId in a [shopId, customerId, position] key. */
const ID_END = '\uffff';

/** Removes every key of a range (read whole first: removing under a live cursor is not safe). */
function removeRange<K extends Key>(db: Database<unknown, K>, range: { start: K; end: K }): number {
  const keys = [...db.getKeys(range)];
  for (const key of keys) db.remove(key);
  return keys.length;
}

/** Erases the shop's rows; resolves with how many went (0: there was no such shop). */
export function eraseShopRows(dbs: Databases, shopId: string, also?: Alongside<number>): Promise<number> {
  return commitDurably(dbs, () => {
    also?.check();
    let removed = 0;
    removed += removeRange(dbs.log, { start: [shopId, 0], end: [shopId, LAST_POSITION] });
    removed += removeRange(dbs.customerEvents, { start: [shopId, '', 0], end: [shopId, ID_END, 0] });
    removed += removeRange(dbs.sessionEntries, { start: [shopId, '', 0], end: [shopId, ID_END, 0] });
    removed += removeRange(dbs.erasuresNamed, { start: [shopId, 0], end: [shopId, LAST_POSITION] });
    removed += removeRange(dbs.dedup, shopRange(shopId));
    removed += removeRange(dbs.products, shopRange(shopId));
    removed += removeRange(dbs.snapshotParts, snapshotPartRange(shopId));
    removed += removeRange(dbs.experiments, { start: [shopId, 0], end: [shopId, LAST_POSITION] });
    removed += removeRange(dbs.rules, shopRange(shopId));
    removed += removeRange(dbs.artifacts, { start: [shopId, 0], end: [shopId, LAST_POSITION] });
    for (const db of [dbs.logHeads, dbs.logStarts, dbs.shops, dbs.snapshots, dbs.snapshotPositions, dbs.storefrontUsage] as Database<unknown, string>[]) {
      if (db.get(shopId) === undefined) continue;
      db.remove(shopId);
      removed++;
    }
    const keys = new Set<string>();
    for (const { key, value } of dbs.apiKeys.getRange()) if (value.shopId === shopId) keys.add(key);
    for (const { key, value } of [...dbs.dashboardSessions.getRange()]) {
      if (!keys.has(value.keyHash)) continue;
      dbs.dashboardSessions.remove(key);
      removed++;
    }
    for (const hash of keys) dbs.apiKeys.remove(hash);
    also?.record(removed + keys.size);
    return removed + keys.size;
  });
}

/** Removes a snapshot of the shop written after its erasure (one that was being taken meanwhile), unless the shop has a log again. */
export function sweepErasedShop(dbs: Databases, shopId: string): Promise<void> {
  return commitDurably(dbs, () => {
    if (dbs.logHeads.get(shopId) !== undefined) return;
    dbs.snapshots.remove(shopId);
    dbs.snapshotPositions.remove(shopId);
    removeRange(dbs.snapshotParts, snapshotPartRange(shopId));
  });
}
