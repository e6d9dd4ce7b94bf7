// The index of each session's log entries: one row [shopId, sessionId, first position of an entry]
// per session and entry that holds events of it, written in the transaction that appends them (one
// row per batch of one shopper, as the widget sends them). What a customer's erasure reads to find
// the events their sessions sent without the customerId (store/customer-erasure.ts). A row may
// outlive the session's events in its entry (an erasure split it): readers check the entry.
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, type Databases } from './database.js';
import { backfillIndex, type IndexRow } from './index-backfill.js';
import { isChange } from './log-entry.js';

/** The distinct sessions of an entry's events. */
function sessionsOf(events: readonly TrackedEvent[]): Iterable<string> {
  return events.length === 1 ? [events[0]!.sessionId] : new Set(events.map((event) => event.sessionId));
}

/** The index rows of an entry stored at `first`: one per session it holds events of. */
export function sessionRows(shopId: string, first: number, events: readonly TrackedEvent[]): [string, string, number][] {
  return [...sessionsOf(events)].map((sessionId) => [shopId, sessionId, first]);
}

/** Indexes the sessions of an entry stored at `first`; call inside its write transaction. */
export function indexSessions(dbs: Databases, shopId: string, first: number, events: readonly TrackedEvent[]): void {
  for (const sessionId of sessionsOf(events)) dbs.sessionEntries.put([shopId, sessionId, first], 1);
}

/** Removes the rows of an entry at `first` (dropped for retention); inside the write transaction. */
export function unindexSessions(dbs: Databases, shopId: string, first: number, events: readonly TrackedEvent[]): void {
  for (const sessionId of sessionsOf(events)) dbs.sessionEntries.remove([shopId, sessionId, first]);
}

/** The index rows of a session, oldest entry first (read whole: callers remove some). */
export function sessionEntryRows(dbs: Databases, shopId: string, sessionId: string): [string, string, number][] {
  return [...dbs.sessionEntries.getKeys({ start: [shopId, sessionId, 0], end: [shopId, sessionId, LAST_POSITION] })];
}

/**
 * Indexes the sessions of the entries a data dir's log held before the session index existed, and
 * lists its customer erasures that name whom they erased (store/customer-erasure.ts forgets the
 * names once a snapshot covers them), once (store/index-backfill.ts); resolves with the rows written.
 */
export function backfillSessionIndex(dbs: Databases): Promise<number> {
  return backfillIndex(dbs, 'sessionIndex', (shopId, first, entry): IndexRow[] => {
    if (!isChange(entry)) return sessionRows(shopId, first, entry.events).map((key) => [dbs.sessionEntries, key, 1]);
    return entry.change.kind === 'customer-erased' ? [[dbs.erasuresNamed, [shopId, first], entry.at]] : [];
  });
}
