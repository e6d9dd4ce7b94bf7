// A customer's erasure in the log, inside the write transaction that appends it: their events, and
// the events their sessions sent without a customerId (found through the session index), become
// 'event-erased' markers at their positions, with their index rows and messageIds. The
// 'customer-erased' entry names the customer and those sessions for the models of every process to
// forget; once a snapshot covers it (every process has applied it, or restores that snapshot) it is
// rewritten without them ('erasure-done'), so nothing left in the log links a session to the customer.
import type { TrackedEvent } from '../api/event.js';
import { indexEvents } from './customer-index.js';
import { LAST_POSITION, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { entryIds, isChange, toEventsEntry, type EventsEntry } from './log-entry.js';
import { indexSessions, sessionEntryRows } from './session-index.js';

/** Sessions an erasure names at most (its log entry carries them): a customer's further sessions age out of the models, their events stay. */
export const MAX_ERASED_SESSIONS = 1_000;

/** An entry's events, decoded once however many of them an erasure takes. */
class Entries {
  readonly #read = new Map<number, EventsEntry | undefined>();

  constructor(
    readonly dbs: Databases,
    readonly shopId: string,
  ) {}

  get(first: number): EventsEntry | undefined {
    if (!this.#read.has(first)) {
      const stored = this.dbs.log.get([this.shopId, first]);
      this.#read.set(first, stored === undefined || isChange(stored) ? undefined : stored);
    }
    return this.#read.get(first);
  }
}

/** Adds `position` (of the entry at `first`) to what is erased. */
function take(erased: Map<number, Set<number>>, first: number, position: number): void {
  let positions = erased.get(first);
  if (positions === undefined) erased.set(first, (positions = new Set()));
  positions.add(position);
}

/**
 * Erases the customer's events and those their sessions sent without a customerId (at most
 * MAX_ERASED_SESSIONS sessions; another customer's events in those sessions are theirs and stay);
 * call inside the write transaction that appends the erasure. Each entry that held one is split so
 * that each erased event becomes an 'event-erased' change at its own position (positions stay
 * contiguous, the other events keep theirs); their index rows and messageIds go too. Returns how
 * many events went and the sessions, for the models to forget. Work: the customer's events, the
 * entries of their sessions, once each.
 */
export function eraseCustomerEvents(dbs: Databases, shopId: string, customerId: string, at: number): { events: number; sessionIds: string[] } {
  const { customerEvents: index, log } = dbs;
  const entries = new Entries(dbs, shopId);
  const erased = new Map<number, Set<number>>();
  const customerRows = [...index.getRange({ start: [shopId, customerId, 0], end: [shopId, customerId, LAST_POSITION] })];
  const sessions = new Set<string>();
  for (const { key: row, value: first } of customerRows) {
    const event = entries.get(first)?.events[row[2] - first];
    if (event?.customerId !== customerId) continue;
    take(erased, first, row[2]);
    if (sessions.size < MAX_ERASED_SESSIONS) sessions.add(event.sessionId);
  }
  const sessionRows: [string, string, number][] = [];
  for (const sessionId of sessions) {
    for (const row of sessionEntryRows(dbs, shopId, sessionId)) {
      sessionRows.push(row);
      const first = row[2];
      entries.get(first)?.events.forEach((event, i) => {
        if (event.sessionId === sessionId && (event.customerId === undefined || event.customerId === customerId)) take(erased, first, first + i);
      });
    }
  }
  let erasedEvents = 0;
  for (const [first, positions] of erased) {
    const stored = entries.get(first)!;
    const ids = entryIds(stored.runs);
    // The entry's positions as runs: events kept together stay one entry, each erased one is a change.
    let runStart = 0;
    const flush = (end: number) => {
      if (end <= runStart) return;
      const kept = stored.events.slice(runStart, end);
      log.put([shopId, first + runStart], toEventsEntry(ids.slice(runStart, end), kept));
      // The kept events of a run that now starts later are found at its new first position.
      if (runStart > 0) {
        indexEvents(dbs, shopId, first + runStart, kept);
        indexSessions(dbs, shopId, first + runStart, kept);
      }
    };
    for (let i = 0; i < stored.events.length; i++) {
      if (!positions.has(first + i)) continue;
      flush(i);
      const event: TrackedEvent = stored.events[i]!;
      if (event.messageId !== undefined) forgetMessageId(dbs, shopId, event.messageId, ids[i]!);
      if (event.customerId !== undefined) index.remove([shopId, event.customerId, first + i]);
      log.put([shopId, first + i], { change: { kind: 'event-erased' }, at });
      erasedEvents++;
      runStart = i + 1;
    }
    flush(stored.events.length);
  }
  for (const { key } of customerRows) index.remove(key);
  // A session's rows go, but for an entry still holding events of it (another customer's in that session).
  for (const row of sessionRows) {
    const kept = log.get([shopId, row[2]]);
    if (kept === undefined || isChange(kept) || !kept.events.some((event) => event.sessionId === row[1])) dbs.sessionEntries.remove(row);
  }
  return { events: erasedEvents, sessionIds: [...sessions] };
}

/** Drops the dedup rows of a messageId that name this event, in either sender's namespace (keyed as shop-log.ts keys them). */
function forgetMessageId(dbs: Databases, shopId: string, messageId: string, eventId: string): void {
  for (const prefix of ['s:', 'p:']) {
    const key: [string, string] = [shopId, prefix + messageId];
    if (dbs.dedup.get(key)?.eventId === eventId) dbs.dedup.remove(key);
  }
}

/**
 * Rewrites the shop's 'customer-erased' entries at or before `through` (its snapshot's position)
 * without the customer and sessions they name: 'erasure-done'. Every process has applied them, or
 * holds models older than that snapshot and restores it (ingest/log-applier.ts) rather than apply
 * an entry that no longer says whom to forget. Resolves with how many were rewritten.
 */
export async function forgetErasedNames(dbs: Databases, shopId: string, through: number): Promise<number> {
  // Most rounds find none: no write transaction for them.
  if (dbs.erasuresNamed.getKeysCount({ start: [shopId, 0], end: [shopId, through + 1] }) === 0) return 0;
  return commitDurably(dbs, () => {
    // As the snapshot is now, in the transaction: it only ever moves forward.
    through = Math.min(through, dbs.snapshotPositions.get(shopId) ?? 0);
    const due = [...dbs.erasuresNamed.getKeys({ start: [shopId, 0], end: [shopId, through + 1] })];
    for (const key of due) {
      const stored = dbs.log.get(key);
      if (stored !== undefined && isChange(stored) && stored.change.kind === 'customer-erased') {
        dbs.log.put(key, { change: { kind: 'erasure-done', events: stored.change.events ?? 0 }, at: stored.at });
      }
      dbs.erasuresNamed.remove(key);
    }
    return due.length;
  });
}
