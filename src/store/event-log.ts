// The durable, append-only event log of every shop (DESIGN.md §7: the engine never knows which
// log implementation it replays from). Also the messageId dedup index, written in the same commit.
// Each event gets the shop's next log position in the transaction that stores it: LMDB runs one
// write transaction at a time across processes, so positions follow commit order even when a CLI
// import writes beside the server, and "everything after position p" misses nothing.
import type { TrackedEvent } from '../api/event.js';
import { commitDurably, positionRange, shopIdsOf, shopRange, type Databases } from './database.js';

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

export class LmdbEventLog implements EventLog {
  constructor(readonly dbs: Databases) {}

  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<number> {
    const { events, positions, dedup } = this.dbs;
    return commitDurably(this.dbs.root, () => {
      // Read inside the write transaction: the latest tail, whichever process wrote it.
      const first = lastPosition(this.dbs, shopId) + 1;
      let position = first;
      for (const { eventId, event } of entries) {
        events.put([shopId, eventId], event);
        positions.put([shopId, position++], eventId);
        if (event.messageId !== undefined) dedup.put([shopId, event.messageId], { eventId, at: receivedAt });
      }
      return first;
    });
  }

  findByMessageId(shopId: string, messageId: string, since: number): string | undefined {
    const record = this.dbs.dedup.get([shopId, messageId]);
    return record !== undefined && record.at >= since ? record.eventId : undefined;
  }

  /**
   * Walks the positions and, beside them, the events in id order (a merge join): while ids follow
   * positions (one writer at a time, the usual case) every event comes from that sequential cursor
   * (a get per event costs about twice as much); where they do not (another writer's ids
   * interleaved), the event is looked up by id or the cursor moved ahead to it.
   */
  *readShop(shopId: string, after = 0, through?: number): Iterable<LoggedEvent> {
    const { events, positions } = this.dbs;
    let cursor: Iterator<{ key: [string, string]; value: TrackedEvent }> | undefined;
    let next: { key: [string, string]; value: TrackedEvent } | undefined;
    try {
      for (const { key, value: eventId } of positions.getRange(positionRange(shopId, after, through))) {
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
        if (event !== undefined) yield { shopId, position: key[1], eventId, event };
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

/** The shop's last log position, 0 when it has none: one reverse seek. */
export function lastPosition(dbs: Databases, shopId: string): number {
  // Reverse: from the highest possible key down to (not including) position 0.
  for (const key of dbs.positions.getKeys({ start: [shopId, Number.MAX_SAFE_INTEGER], end: [shopId, 0], reverse: true, limit: 1 })) return key[1];
  return 0;
}
