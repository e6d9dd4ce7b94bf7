// The durable, append-only event log of every shop. The engine never knows which log
// implementation it replays from: the service sees only the EventLog interface. Also the messageId
// dedup index, written in the same commit.
// Each append is one log entry holding its events, at the shop's next log positions, written in
// the transaction that stores it: LMDB runs one write transaction at a time across processes, so
// positions follow commit order even when a CLI import writes beside the server, and "everything
// after position p" misses nothing. Older versions stored each event by id in `events` and only
// ids in the log: their entries are read through that database (LegacyEvents).
import type { Database } from 'lmdb';
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, shopRange, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { entryIds, holdsEvents, toEventsEntry } from './log-entry.js';

export interface LoggedEvent {
  shopId: string;
  /** The event's place in the shop's log: 1, 2, 3… in commit order. */
  position: number;
  eventId: string;
  event: TrackedEvent;
}

export interface EventLog {
  /**
   * Appends the events (and their messageIds, received at `receivedAt`) in one durable commit, at
   * consecutive positions; resolves with the first one's.
   */
  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<number>;
  /** The eventId already stored under a messageId no older than `since` (epoch ms). */
  findByMessageId(shopId: string, messageId: string, since: number): string | undefined;
  /** One shop's events in log order, after position `after` (0: from the start) up to `through`. */
  readShop(shopId: string, after?: number, through?: number): Iterable<LoggedEvent>;
  /** Shops that have events. */
  shopIds(): Iterable<string>;
  /** Drops dedup entries older than `before`, `batch` scanned per commit; returns how many. */
  pruneDedup(before: number, batch?: number): Promise<number>;
}

/** Dedup entries scanned (and at most removed) per commit of a prune. */
const PRUNE_BATCH = 10_000;

export class LmdbEventLog implements EventLog {
  constructor(readonly dbs: Databases) {}

  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<number> {
    const { log, logHeads, logHeldEvents, dedup } = this.dbs;
    const eventIds = entries.map(({ eventId }) => eventId);
    const events = entries.map(({ event }) => event);
    return commitDurably(this.dbs, () => {
      // Read inside the write transaction: the latest head, whichever process wrote it.
      const first = (logHeads.get(shopId) ?? 0) + 1;
      for (const { eventId, event } of entries) {
        if (event.messageId !== undefined) dedup.put([shopId, event.messageId], { eventId, at: receivedAt });
      }
      log.put([shopId, first], toEventsEntry(eventIds, events));
      logHeads.put(shopId, first + entries.length - 1);
      logHeldEvents.put(shopId, (logHeldEvents.get(shopId) ?? 0) + entries.length);
      return first;
    });
  }

  findByMessageId(shopId: string, messageId: string, since: number): string | undefined {
    const record = this.dbs.dedup.get([shopId, messageId]);
    return record !== undefined && record.at >= since ? record.eventId : undefined;
  }

  *readShop(shopId: string, after = 0, through = LAST_POSITION): Iterable<LoggedEvent> {
    const { log } = this.dbs;
    const legacy = new LegacyEvents(this.dbs.events, shopId);
    try {
      for (const { key, value } of log.getRange({ start: [shopId, entryAt(this.dbs, shopId, after + 1)], end: [shopId, through + 1] })) {
        const first = key[1];
        const holds = holdsEvents(value); // else stored by id (older versions)
        const held = holds ? value.events : undefined;
        const eventIds = entryIds(holds ? value.runs : value);
        const end = Math.min(eventIds.length, through - first + 1);
        for (let i = Math.max(0, after + 1 - first); i < end; i++) {
          const eventId = eventIds[i]!;
          const event = held !== undefined ? held[i] : legacy.get(eventId);
          if (event !== undefined) yield { shopId, position: first + i, eventId, event };
        }
      }
    } finally {
      legacy.close();
    }
  }

  /** Every shop with events has a head: the position backfill (run at start) gives older events theirs. */
  shopIds(): Iterable<string> {
    return this.dbs.logHeads.getKeys();
  }

  /**
   * Scans the index `batch` entries at a time, each batch's stale keys removed in one commit: the
   * index holds every messageId of a week (anyone with the public key can send millions), so the
   * prune holds at most `batch` keys and gives the event loop back between batches.
   */
  async pruneDedup(before: number, batch = PRUNE_BATCH): Promise<number> {
    let removed = 0;
    let last: [string, string] | undefined;
    for (;;) {
      const stale: [string, string][] = [];
      let scanned = 0;
      // From the last key scanned: it is skipped when still there (not stale), gone when removed.
      for (const { key, value } of this.dbs.dedup.getRange(last === undefined ? {} : { start: last })) {
        if (last !== undefined && key[0] === last[0] && key[1] === last[1]) continue;
        if (value.at < before) stale.push(key);
        last = key;
        if (++scanned === batch) break;
      }
      if (stale.length > 0) {
        await commitDurably(this.dbs, () => {
          for (const key of stale) this.dbs.dedup.remove(key);
        });
        removed += stale.length;
      } else if (scanned === batch) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (scanned < batch) return removed;
    }
  }
}

/** The first position of the log entry that holds `position` (1 when the shop has none at or before it). */
function entryAt(dbs: Databases, shopId: string, position: number): number {
  for (const key of dbs.log.getKeys({ start: [shopId, position], end: [shopId, 0], reverse: true, limit: 1 })) return key[1];
  return 1;
}

type EventEntry = { key: [string, string]; value: TrackedEvent };

/**
 * One shop's events as older versions stored them, by id, read in log order: a merge join with a
 * sequential cursor. While ids follow positions (one writer at a time, the usual case) every event
 * comes from that cursor (a get per event costs about twice as much); where they do not (another
 * writer's ids interleaved), the event is looked up by id or the cursor moved ahead to it.
 */
class LegacyEvents {
  #cursor: Iterator<EventEntry> | undefined;
  #next: EventEntry | undefined;

  constructor(
    readonly events: Database<TrackedEvent, [string, string]>,
    readonly shopId: string,
  ) {}

  get(eventId: string): TrackedEvent | undefined {
    if (this.#next === undefined || this.#next.key[1] < eventId) {
      this.#cursor?.return?.();
      this.#cursor = this.events.getRange(shopRange(this.shopId, eventId))[Symbol.iterator]();
      this.#next = this.#cursor.next().value;
    }
    if (this.#next === undefined || this.#next.key[1] !== eventId) return this.events.get([this.shopId, eventId]); // the cursor is past it: stored after events with later ids
    const event = this.#next.value;
    this.#next = this.#cursor!.next().value;
    return event;
  }

  close(): void {
    this.#cursor?.return?.();
  }
}
