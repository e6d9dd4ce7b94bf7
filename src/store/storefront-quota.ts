// What a shop's public key may store in a day (UTC), in events and bytes: the bound on how fast
// anyone holding the key can fill the disk, whatever addresses and rate limits it goes through.
// Counted in the write transaction that appends the events, in a row of the data dir, so the bound
// holds for every server process of the node together (LMDB runs one write transaction at a time);
// past one machine each node's follower appends the stream in the same order with the same counts
// (the day taken from the time the writer gave each write), so every node decides alike. Writes of
// the merchant's server (the secret key, the CLI, the demo seed) are never charged.
import { storedMetadataBytes, type TrackedEvent } from '../api/event.js';
import type { StorefrontQuota } from '../config.js';
import type { Databases } from './database.js';
import type { StorefrontUsage } from './records.js';

export type { StorefrontQuota, StorefrontUsage };

export const NO_QUOTA: StorefrontQuota = Object.freeze({ eventsPerDay: 0, bytesPerDay: 0 });

export const DAY_MS = 86_400_000;

/**
 * A stored event's bytes as the budget counts them: its ids and type as strings, a record's and a
 * timestamp's overhead, its metadata as MessagePack, and its messageId a second time with the dedup
 * row that keeps it a week. An estimate of the log's and the index's growth, not the B-tree's pages.
 */
export function storedEventBytes(event: TrackedEvent): number {
  let bytes = 16 + event.type.length + event.productId.length + event.sessionId.length;
  if (event.customerId !== undefined) bytes += 1 + event.customerId.length;
  if (event.widgetId !== undefined) bytes += 1 + event.widgetId.length;
  if (event.recId !== undefined) bytes += 1 + event.recId.length;
  if (event.messageId !== undefined) bytes += 48 + 2 * event.messageId.length;
  if (event.metadata !== undefined) bytes += storedMetadataBytes(event.metadata);
  return bytes;
}

export class StorefrontQuotaTable {
  constructor(
    readonly dbs: Databases,
    readonly quota: StorefrontQuota,
  ) {}

  get bounded(): boolean {
    return this.quota.eventsPerDay > 0 || this.quota.bytesPerDay > 0;
  }

  /**
   * What the shop's public key stored on the day of `at` (epoch ms), as this process's read
   * snapshot has it. A usage row of a later day (another writer's clock past midnight) is that
   * day's: a day's count never goes back.
   */
  usage(shopId: string, at: number): StorefrontUsage {
    const day = Math.floor(at / DAY_MS);
    const row = this.dbs.storefrontUsage.get(shopId);
    return row !== undefined && row.day >= day ? row : { day, events: 0, bytes: 0 };
  }

  /** When the shop's budget for the day of `at` is spent: when the next day starts (epoch ms); undefined while there is room. */
  spentUntil(shopId: string, at: number): number | undefined {
    if (!this.bounded) return undefined;
    const usage = this.usage(shopId, at);
    const { eventsPerDay, bytesPerDay } = this.quota;
    const spent = (eventsPerDay > 0 && usage.events >= eventsPerDay) || (bytesPerDay > 0 && usage.bytes >= bytesPerDay);
    return spent ? (usage.day + 1) * DAY_MS : undefined;
  }

  /**
   * Charges `events` events of `bytes` bytes to the shop's day of `at`, all or none; call inside
   * the write transaction that appends them. Undefined when charged, else when the next day starts
   * (the append must store nothing).
   */
  charge(shopId: string, at: number, events: number, bytes: number): number | undefined {
    if (!this.bounded || events === 0) return undefined;
    const usage = this.usage(shopId, at);
    const { eventsPerDay, bytesPerDay } = this.quota;
    if ((eventsPerDay > 0 && usage.events + events > eventsPerDay) || (bytesPerDay > 0 && usage.bytes + bytes > bytesPerDay)) return (usage.day + 1) * DAY_MS;
    this.dbs.storefrontUsage.put(shopId, { day: usage.day, events: usage.events + events, bytes: usage.bytes + bytes });
    return undefined;
  }
}
