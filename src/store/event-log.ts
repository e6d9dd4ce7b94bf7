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
  /** Drops dedup entries older than `before`; returns how many. */
  pruneDedup(before: number): Promise<number>;
}

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

  async pruneDedup(before: number): Promise<number> {
    const stale: [string, string][] = [];
    for (const { key, value } of this.dbs.dedup.getRange()) if (value.at < before) stale.push(key);
    if (stale.length > 0) {
      await commitDurably(this.dbs, () => {
        for (const key of stale) this.dbs.dedup.remove(key);
      });
    }
    return stale.length;
  }
}
