// The durable, append-only event log of every shop (DESIGN.md §7: the engine never knows which
// log implementation it replays from). Also the messageId dedup index, written in the same commit.
// Each event gets the shop's next log position in the transaction that stores it: LMDB runs one
// write transaction at a time across processes, so positions follow commit order even when a CLI
// import writes beside the server, and "everything after position p" misses nothing.
import type { TrackedEvent } from '../api/event.js';
import { commitDurably, LAST_POSITION, shopIdsOf, shopRange, type Databases } from './database.js';

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
  /** Drops dedup entries older than `before`; returns how many. */
  pruneDedup(before: number): Promise<number>;
}

type EventEntry = { key: [string, string]; value: TrackedEvent };

export class LmdbEventLog implements EventLog {
  constructor(readonly dbs: Databases) {}

  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<number> {
    const { events, log, logHeads, dedup } = this.dbs;
    return commitDurably(this.dbs.root, () => {
      // Read inside the write transaction: the latest head, whichever process wrote it.
      const first = (logHeads.get(shopId) ?? 0) + 1;
      const eventIds: string[] = [];
      for (const { eventId, event } of entries) {
        events.put([shopId, eventId], event);
        eventIds.push(eventId);
        if (event.messageId !== undefined) dedup.put([shopId, event.messageId], { eventId, at: receivedAt });
      }
      log.put([shopId, first], eventIds);
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
      for (const { key, value: eventIds } of log.getRange({ start: [shopId, entryAt(this.dbs, shopId, after + 1)], end: [shopId, through + 1] })) {
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

  async pruneDedup(before: number): Promise<number> {
    const stale: [string, string][] = [];
    for (const { key, value } of this.dbs.dedup.getRange()) if (value.at < before) stale.push(key);
    if (stale.length > 0) {
      await commitDurably(this.dbs.root, () => {
        for (const key of stale) this.dbs.dedup.remove(key);
      });
    }
    return stale.length;
  }
}

/** The first position of the log entry that holds `position` (1 when the shop has none at or before it). */
function entryAt(dbs: Databases, shopId: string, position: number): number {
  for (const key of dbs.log.getKeys({ start: [shopId, position], end: [shopId, 0], reverse: true, limit: 1 })) return key[1];
  return 1;
}
