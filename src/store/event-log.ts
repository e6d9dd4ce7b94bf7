// The durable, append-only event log of every shop (DESIGN.md §7: the engine never knows which
// log implementation it replays from). Also the messageId dedup index, written in the same commit.
// Each event gets the shop's next log position in the transaction that stores it: LMDB runs one
// write transaction at a time across processes, so positions follow commit order even when a CLI
// import writes beside the server, and "everything after position p" misses nothing.
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, shopIdsOf, shopRange, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import { entryIds, toLogEntry } from './log-entry.js';

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

type EventEntry = { key: [string, string]; value: TrackedEvent };

export class LmdbEventLog implements EventLog {
  constructor(readonly dbs: Databases) {}

  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<number> {
    const { events, log, logHeads, dedup } = this.dbs;
    return commitDurably(this.dbs, () => {
      // Read inside the write transaction: the latest head, whichever process wrote it.
      const first = (logHeads.get(shopId) ?? 0) + 1;
      const eventIds: string[] = [];
      for (const { eventId, event } of entries) {
        events.put([shopId, eventId], event);
        eventIds.push(eventId);
        if (event.messageId !== undefined) dedup.put([shopId, event.messageId], { eventId, at: receivedAt });
      }
      log.put([shopId, first], toLogEntry(eventIds));
      logHeads.put(shopId, first + eventIds.length - 1);
      return first;
    });
  }

  findByMessageId(shopId: string, messageId: string, since: number): string | undefined {
    const record = this.dbs.dedup.get([shopId, messageId]);
    return record !== undefined && record.at >= since ? record.eventId : undefined;
  }

  /**
   * Walks the log and, beside it, the events in id order (a merge join): while ids follow
   * positions (one writer at a time, the usual case) every event comes from that sequential cursor
   * (a get per event costs about twice as much); where they do not (another writer's ids
   * interleaved), the event is looked up by id or the cursor moved ahead to it.
   */
  *readShop(shopId: string, after = 0, through = LAST_POSITION): Iterable<LoggedEvent> {
    const { events, log } = this.dbs;
    let cursor: Iterator<EventEntry> | undefined;
    let next: EventEntry | undefined;
    try {
      for (const { key, value } of log.getRange({ start: [shopId, entryAt(this.dbs, shopId, after + 1)], end: [shopId, through + 1] })) {
        const eventIds = entryIds(value);
        for (let i = Math.max(0, after + 1 - key[1]); i < eventIds.length && key[1] + i <= through; i++) {
          const eventId = eventIds[i]!;
          if (next === undefined || next.key[1] < eventId) {
            cursor?.return?.();
            cursor = events.getRange(shopRange(shopId, eventId))[Symbol.iterator]();
            next = cursor.next().value;
          }
          let event: TrackedEvent | undefined;
          if (next !== undefined && next.key[1] === eventId) {
            event = next.value;
            next = cursor!.next().value;
          } else {
            event = events.get([shopId, eventId]); // the cursor is past it: stored after events with later ids
          }
          if (event !== undefined) yield { shopId, position: key[1] + i, eventId, event };
        }
      }
    } finally {
      cursor?.return?.();
    }
  }

  shopIds(): Iterable<string> {
    return shopIdsOf(this.dbs.events);
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
