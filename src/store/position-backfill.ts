// The one migration of the event log's layout: events stored before log positions existed (or by
// an older build beside a newer one) get positions, in eventId order after the shop's last one.
// Idempotent: an event that has a position keeps it, so running it again, or after a crash in the
// middle (it is one transaction: all or nothing), changes nothing.
import { eventsStoredById, LAST_POSITION, shopIdsOf, shopRange, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { entryIds, holdsEvents, toLogEntry } from './log-entry.js';

/** Log entries the backfill writes hold at most this many eventIds (as a CLI import's chunks do). */
const ENTRY_EVENTS = 1000;

/** Gives every event without a log position one; resolves with how many got one. */
export async function backfillPositions(dbs: Databases): Promise<number> {
  // Every writer stores events and their log entry in one transaction, and events are never
  // deleted: as many events stored by id (O(1), from LMDB's own statistics) as positions (one head
  // per shop) less the events that log entries hold means there is nothing to do.
  let positioned = 0;
  for (const { value } of dbs.logHeads.getRange()) positioned += value;
  for (const { value } of dbs.logHeldEvents.getRange()) positioned -= value;
  if (eventsStoredById(dbs) === positioned) return 0;
  return commitDurably(dbs, () => {
    let added = 0;
    for (const shopId of shopIdsOf(dbs.events)) {
      const placed = new Set<string>();
      for (const { value } of dbs.log.getRange({ start: [shopId, 1], end: [shopId, LAST_POSITION] })) {
        if (!holdsEvents(value)) for (const id of entryIds(value)) placed.add(id);
      }
      const head = dbs.logHeads.get(shopId) ?? 0;
      let last = head;
      let entry: string[] = [];
      const flush = () => {
        if (entry.length === 0) return;
        dbs.log.put([shopId, last + 1], toLogEntry(entry));
        last += entry.length;
        added += entry.length;
        entry = [];
      };
      for (const [, eventId] of dbs.events.getKeys(shopRange(shopId))) {
        if (placed.has(eventId)) continue;
        entry.push(eventId);
        if (entry.length === ENTRY_EVENTS) flush();
      }
      flush();
      if (last !== head) dbs.logHeads.put(shopId, last);
    }
    return added;
  });
}
