// The one migration of the event log's layout: events stored before log positions existed (or by
// an older build beside a newer one) get positions, in eventId order after the shop's last one.
// Idempotent: an event that has a position keeps it, so running it again, or after a crash in the
// middle (it is one transaction: all or nothing), changes nothing.
import { commitDurably, positionRange, shopIdsOf, shopRange, type Databases } from './database.js';

/** Gives every event without a log position one; resolves with how many got one. */
export async function backfillPositions(dbs: Databases): Promise<number> {
  // Every writer stores an event and its position in one transaction, and events are never
  // deleted: equal counts (O(1), from LMDB's own statistics) mean there is nothing to do.
  if (entryCount(dbs.events) === entryCount(dbs.positions)) return 0;
  return commitDurably(dbs.root, () => {
    let added = 0;
    for (const shopId of shopIdsOf(dbs.events)) {
      const placed = new Set<string>();
      let last = 0;
      for (const { key, value } of dbs.positions.getRange(positionRange(shopId))) {
        placed.add(value);
        last = key[1];
      }
      for (const [, eventId] of dbs.events.getKeys(shopRange(shopId))) {
        if (placed.has(eventId)) continue;
        dbs.positions.put([shopId, ++last], eventId);
        added++;
      }
    }
    return added;
  });
}

/** lmdb-js types getStats() as {}; it returns mdb_stat's fields, ms_entries as entryCount. */
function entryCount(db: { getStats(): unknown }): number {
  return (db.getStats() as { entryCount: number }).entryCount;
}
