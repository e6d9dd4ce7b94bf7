// The durable, append-only event log of every shop (DESIGN.md §7: the engine never knows which
// log implementation it replays from). Also the messageId dedup index, written in the same commit.
import type { TrackedEvent } from '../api/event.js';
import { shopIdsOf, shopRange, type Databases } from './database.js';
import { commitDurably } from './durable-commit.js';

export interface LoggedEvent {
  shopId: string;
  eventId: string;
  event: TrackedEvent;
}

export interface EventLog {
  /** Appends the events (and their messageIds, received at `receivedAt`) in one durable commit. */
  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<void>;
  /** The eventId already stored under a messageId no older than `since` (epoch ms). */
  findByMessageId(shopId: string, messageId: string, since: number): string | undefined;
  /** One shop's events in arrival order, after `afterEventId` when given. */
  readShop(shopId: string, afterEventId?: string): Iterable<LoggedEvent>;
  /** Shops that have events. */
  shopIds(): Iterable<string>;
  /** Drops dedup entries older than `before`, `batch` scanned per commit; returns how many. */
  pruneDedup(before: number, batch?: number): Promise<number>;
}

/** Dedup entries scanned (and at most removed) per commit of a prune. */
const PRUNE_BATCH = 10_000;

export class LmdbEventLog implements EventLog {
  constructor(readonly dbs: Databases) {}

  append(shopId: string, entries: readonly { eventId: string; event: TrackedEvent }[], receivedAt: number): Promise<void> {
    const { events, dedup } = this.dbs;
    return commitDurably(this.dbs, () => {
      for (const { eventId, event } of entries) {
        events.put([shopId, eventId], event);
        if (event.messageId !== undefined) dedup.put([shopId, event.messageId], { eventId, at: receivedAt });
      }
    });
  }

  findByMessageId(shopId: string, messageId: string, since: number): string | undefined {
    const record = this.dbs.dedup.get([shopId, messageId]);
    return record !== undefined && record.at >= since ? record.eventId : undefined;
  }

  *readShop(shopId: string, afterEventId?: string): Iterable<LoggedEvent> {
    for (const { key, value } of this.dbs.events.getRange(shopRange(shopId, afterEventId))) {
      if (key[1] === afterEventId) continue;
      yield { shopId, eventId: key[1], event: value };
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
