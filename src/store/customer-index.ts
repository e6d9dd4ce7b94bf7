// The index of each customer's events: one row [shopId, customerId, position] per stored event that
// names a customer, written in the transaction that appends it (one put per such event), so the
// index never lacks an acknowledged event. Read newest first to rebuild an evicted customer, in
// order to export one, and emptied (with the events themselves) when one is erased.
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { entryIds, isChange, toEventsEntry, type EventsEntry } from './log-entry.js';

/** One indexed event: its log position, id and the event as stored. */
export interface IndexedEvent {
  position: number;
  eventId: string;
  event: TrackedEvent;
}

/** Sessions an erasure names at most (its log entry carries them): a customer's further sessions age out of the models. */
export const MAX_ERASED_SESSIONS = 1_000;

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

/**
 * Erases the customer's events from the log; call inside the write transaction that appends the
 * erasure. Each entry that held one is split so that each of their events becomes an
 * 'event-erased' change at its own position (positions stay contiguous, the other events keep
 * theirs); their index rows and messageIds go too. Returns how many events went and the sessions
 * they named (at most MAX_ERASED_SESSIONS), for the models to forget. Work: the customer's events
 * and the entries that hold them, once each (and the index rows of other customers' events there).
 */
export function eraseCustomerEvents(dbs: Databases, shopId: string, customerId: string, at: number): { events: number; sessionIds: string[] } {
  const { customerEvents: index, log } = dbs;
  const byEntry = new Map<number, number[]>();
  const rows: [string, string, number][] = [];
  for (const { key, value: first } of index.getRange({ start: [shopId, customerId, 0], end: [shopId, customerId, LAST_POSITION] })) {
    rows.push(key);
    let positions = byEntry.get(first);
    if (positions === undefined) byEntry.set(first, (positions = []));
    positions.push(key[2]);
  }
  const sessions = new Set<string>();
  let erasedEvents = 0;
  for (const [first, positions] of byEntry) {
    const stored = log.get([shopId, first]);
    if (stored === undefined || isChange(stored)) continue;
    const erased = new Set(positions);
    const ids = entryIds(stored.runs);
    // The entry's positions as runs: events kept together stay one entry, each erased one is a change.
    let runStart = 0;
    const flush = (end: number) => {
      if (end <= runStart) return;
      const kept = stored.events.slice(runStart, end);
      log.put([shopId, first + runStart], toEventsEntry(ids.slice(runStart, end), kept));
      // Other customers' events of a run that now starts later are found at its new first position.
      if (runStart > 0) indexEvents(dbs, shopId, first + runStart, kept);
    };
    for (let i = 0; i < stored.events.length; i++) {
      if (!erased.has(first + i)) continue;
      flush(i);
      const event = stored.events[i]!;
      if (sessions.size < MAX_ERASED_SESSIONS) sessions.add(event.sessionId);
      if (event.messageId !== undefined) forgetMessageId(dbs, shopId, event.messageId, ids[i]!);
      log.put([shopId, first + i], { change: { kind: 'event-erased' }, at });
      erasedEvents++;
      runStart = i + 1;
    }
    flush(stored.events.length);
  }
  for (const row of rows) index.remove(row);
  return { events: erasedEvents, sessionIds: [...sessions] };
}

/** Drops the dedup rows of a messageId that name this event, in either sender's namespace (keyed as shop-log.ts keys them). */
function forgetMessageId(dbs: Databases, shopId: string, messageId: string, eventId: string): void {
  for (const prefix of ['s:', 'p:']) {
    const key: [string, string] = [shopId, prefix + messageId];
    if (dbs.dedup.get(key)?.eventId === eventId) dbs.dedup.remove(key);
  }
}

/** The meta key that says every log entry of the data dir is indexed (events stored before the index existed included). */
const INDEXED_KEY = 'customerIndex';
/** Index rows written per commit of the backfill. */
const BACKFILL_BATCH = 10_000;

/**
 * Indexes the events a data dir's log held before the index existed (a version without it wrote
 * them), once: every shop's log read entry by entry, BACKFILL_BATCH rows a commit, then the data
 * dir marked done. Idempotent (a process that ends half-way, or two that run it at once, write the
 * same rows). Resolves with the rows written (0 when already done).
 */
export async function backfillCustomerIndex(dbs: Databases): Promise<number> {
  if (dbs.meta.get(INDEXED_KEY) !== undefined) return 0;
  let written = 0;
  let rows: [[string, string, number], number][] = [];
  const flush = async () => {
    const batch = rows;
    rows = [];
    if (batch.length > 0) await commitDurably(dbs, () => { for (const [key, first] of batch) dbs.customerEvents.put(key, first); });
    written += batch.length;
  };
  for (const { key: shopId } of [...dbs.logHeads.getRange()]) {
    for (const { key, value } of dbs.log.getRange({ start: [shopId, 0], end: [shopId, LAST_POSITION] })) {
      if (isChange(value)) continue;
      const first = key[1];
      value.events.forEach((event, i) => {
        if (event.customerId !== undefined) rows.push([[shopId, event.customerId, first + i], first]);
      });
      if (rows.length >= BACKFILL_BATCH) await flush();
    }
  }
  await flush();
  await commitDurably(dbs, () => dbs.meta.put(INDEXED_KEY, 'v1'));
  return written;
}
