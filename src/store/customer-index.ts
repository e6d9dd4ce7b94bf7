// The index of each customer's events: one row [shopId, customerId, position] per stored event that
// names a customer, written in the transaction that appends it (one put per such event), so the
// index never lacks an acknowledged event. Read newest first to rebuild an evicted customer, in
// order to export one, and emptied (with the events themselves) when one is erased
// (store/customer-erasure.ts).
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, type Databases } from './database.js';
import { backfillIndex, type IndexRow } from './index-backfill.js';
import { entryIds, isChange, type EventsEntry } from './log-entry.js';

/** One indexed event: its log position, id and the event as stored. */
export interface IndexedEvent {
  position: number;
  eventId: string;
  event: TrackedEvent;
}

/** Indexes the events of an append stored at positions first, first + 1, …; call inside its write transaction. */
export function indexEvents(dbs: Databases, shopId: string, first: number, events: readonly TrackedEvent[]): void {
  for (let i = 0; i < events.length; i++) {
    const customerId = events[i]!.customerId;
    if (customerId !== undefined) dbs.customerEvents.put([shopId, customerId, first + i], first);
  }
}

/** Removes the index rows of an append's events stored at first, first + 1, … (its entry dropped for retention); inside the write transaction. */
export function unindexEvents(dbs: Databases, shopId: string, first: number, events: readonly TrackedEvent[]): void {
  for (let i = 0; i < events.length; i++) {
    const customerId = events[i]!.customerId;
    if (customerId !== undefined) dbs.customerEvents.remove([shopId, customerId, first + i]);
  }
}

/**
 * The customer's indexed events, read through one log entry at a time (a batch of a customer's
 * events shares its entry: it is decoded once). `newestFirst` reads back from `before`; otherwise
 * forward from after `after`. At most `limit`.
 */
export function customerEvents(
  dbs: Databases,
  shopId: string,
  customerId: string,
  options: { after?: number; before?: number; limit: number; newestFirst?: boolean },
): IndexedEvent[] {
  const { after = 0, before = LAST_POSITION, limit, newestFirst = false } = options;
  const range = newestFirst
    ? { start: [shopId, customerId, before - 1] as [string, string, number], end: [shopId, customerId, after] as [string, string, number], reverse: true, limit }
    : { start: [shopId, customerId, after + 1] as [string, string, number], end: [shopId, customerId, before] as [string, string, number], limit };
  const found: IndexedEvent[] = [];
  let entryFirst = -1;
  let entry: EventsEntry | undefined;
  let ids: string[] = [];
  for (const { key, value: first } of dbs.customerEvents.getRange(range)) {
    if (first !== entryFirst) {
      entryFirst = first;
      const stored = dbs.log.get([shopId, first]);
      entry = stored === undefined || isChange(stored) ? undefined : stored;
      ids = entry === undefined ? [] : entryIds(entry.runs);
    }
    const event = entry?.events[key[2] - first];
    if (event !== undefined && event.customerId === customerId) found.push({ position: key[2], eventId: ids[key[2] - first]!, event });
  }
  return found;
}

/** Indexes the customers' events a data dir's log held before the customer index existed, once (store/index-backfill.ts); resolves with the rows written. */
export function backfillCustomerIndex(dbs: Databases): Promise<number> {
  const index = dbs.customerEvents;
  return backfillIndex(dbs, 'customerIndex', (shopId, first, entry) => {
    const rows: IndexRow[] = [];
    if (isChange(entry)) return rows;
    entry.events.forEach((event, i) => {
      if (event.customerId !== undefined) rows.push([index, [shopId, event.customerId, first + i], first]);
    });
    return rows;
  });
}
