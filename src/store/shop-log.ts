// The durable, append-only log of every shop: its events, and every other change that alters its
// answers (catalog, shop record and keys, experiments). It is the one source of truth: the tables
// beside it (products, shops, keys, experiments) are written in the same transaction as the entry
// that changes them, and every server process applies the log in order to its models. Each append
// is one entry at the shop's next positions, taken from `logHeads` inside the write transaction:
// LMDB runs one write transaction at a time across processes, so positions follow commit order
// whichever process wrote, and "everything after position p" misses nothing. Also the messageId
// dedup index, checked and written in the same transaction as the events it names.
import type { TrackedEvent } from '../api/event.js';
import { LAST_POSITION, type Databases, type DedupRecord } from './database.js';
import { commitDurably, type Alongside } from './durable-commit.js';
import { entryIds, isChange, toEventsEntry, type EaseArtifact, type ShopChange } from './log-entry.js';
import { writeChange } from './change-tables.js';
import { buildChange, type ShopCommand } from './shop-command.js';
import { logStart, pruneLog, type Pruned } from './log-retention.js';
import { indexEvents } from './customer-index.js';
import { indexSessions } from './session-index.js';
import { eraseShopRows } from './shop-erasure.js';
import { forgetErasedNames } from './customer-erasure.js';
import { NO_QUOTA, storedEventBytes, StorefrontQuotaTable, type StorefrontQuota } from './storefront-quota.js';

/** One position of a shop's log: an event, or a change. */
export type LogRecord =
  | { position: number; eventId: string; event: TrackedEvent; change?: undefined }
  | { position: number; change: ShopChange; event?: undefined };

/**
 * Who sent events: messageIds of the merchant's server (a secret key, the CLI, the demo seed) and of
 * storefronts (a public key) are separate namespaces, so a public key can never shadow (or probe)
 * an id the merchant's server uses.
 */
export type Sender = 'public' | 'secret';

/**
 * How long the messageId of a platform's order line (`shopify:…`, `woocommerce:…`, sent by the
 * merchant's side: a webhook, a sync) is remembered: an order is delivered again long after the 7-day
 * window (WooCommerce's order.updated at each change of state, a sync of 90 days run again), and must
 * still count once. About the log's retention.
 */
export const PLATFORM_LINE_DEDUP_MS = 400 * 86_400_000;
const PLATFORM_LINE = /^(shopify|woocommerce):/;

function dedupRecord(sender: Sender, messageId: string, eventId: string, receivedAt: number): DedupRecord {
  return sender === 'secret' && PLATFORM_LINE.test(messageId) ? { eventId, at: receivedAt, until: receivedAt + PLATFORM_LINE_DEDUP_MS } : { eventId, at: receivedAt };
}

/** The dedup index's key of a messageId: its sender's namespace first ('p:' or 's:'), which no id of the other can spell. */
function dedupKey(sender: Sender, messageId: string): string {
  return (sender === 'secret' ? 's:' : 'p:') + messageId;
}

/** An event to append, with the id it was given. */
export interface NewEvent {
  eventId: string;
  event: TrackedEvent;
}

/** What an append of events stored: its first position, and for each event whether it was stored or a repeat (the first eventId). */
export interface EventsAppended {
  /** The first stored event's position; the shop's head when nothing was stored. */
  first: number;
  /** Per event, in order: undefined when stored, else the eventId stored earlier under its messageId. */
  duplicateOf: (string | undefined)[];
  /**
   * Set when the shop's public key had spent its storefront budget for the day (store/storefront-quota.ts):
   * nothing was stored, and the budget starts again at this time (epoch ms).
   */
  refusedUntil?: number;
}

export interface ShopLog {
  /**
   * Appends the events in one durable commit, at consecutive positions. An event whose messageId
   * is already in the sender's namespace of the index (received no earlier than `dedupSince`) is not stored: the check and
   * the append are one write transaction, so one messageId sent to two processes at once is stored
   * once. New messageIds are indexed as received at `receivedAt`.
   */
  appendEvents(shopId: string, events: readonly NewEvent[], receivedAt: number, dedupSince: number, sender?: Sender): Promise<EventsAppended>;
  /**
   * Appends the change `command` makes (shop-command.ts), turned into it inside the write
   * transaction (so against the latest state of any process), and writes the tables it changes in
   * that same transaction. A command that changes nothing appends nothing. Resolves with the change
   * and its position.
   */
  append(shopId: string, command: ShopCommand, at: number): Promise<{ change: ShopChange; position: number } | undefined>;
  /**
   * Appends an ease-fit change and stores its artifact, in one commit; older artifacts of the shop
   * past the last KEPT_ARTIFACTS go. Resolves with the change's position.
   */
  publishEaseFit(shopId: string, artifact: EaseArtifact, fittedThrough: number, at: number): Promise<number>;
  /** The EASE fit stored for the ease-fit entry at `position`; undefined once it is no longer kept. */
  easeFit(shopId: string, position: number): EaseArtifact | undefined;
  /** One shop's log in order, after position `after` (0: from the start) up to `through`. */
  read(shopId: string, after?: number, through?: number): Iterable<LogRecord>;
  /**
   * The shop's last position (0: none), as of this process's read snapshot: `latest` first drops
   * the snapshot, so that it counts every commit of every process so far.
   */
  head(shopId: string, latest?: boolean): number;
  /** Every shop with a log, and its last position (`latest` as for head). */
  heads(latest?: boolean): { shopId: string; head: number }[];
  /**
   * The first position the shop's log still holds (1 until entries were dropped for retention):
   * a read from before it starts there. `latest` as for head.
   */
  start(shopId: string, latest?: boolean): number;
  /** Drops the entries at the start of the log that end at or before `through` and are older than `before` (store/log-retention.ts). */
  prune(shopId: string, through: number, before: number): Promise<Pruned>;
  /** Drops dedup entries older than `before` (those kept `until` a time: past it), `batch` scanned per commit; returns how many. */
  pruneDedup(before: number, batch?: number): Promise<number>;
  /**
   * Rewrites the shop's customer erasures at or before `through` (its snapshot's position) without
   * the names they hold (store/customer-erasure.ts); resolves with how many.
   */
  forgetErasedNames(shopId: string, through: number): Promise<number>;
  /** Calls `listener` after each append of this process is durable, with the shop's new head (to tell other processes). */
  onCommitted(listener: (shopId: string, head: number) => void): void;
  /** Erases every row of the shop (store/shop-erasure.ts) and tells the commit listeners its head is now 0. Resolves with the rows removed. */
  eraseShop(shopId: string): Promise<number>;
}

/** EASE fits kept per shop: a process applying the log that many fits behind still finds the one it reaches. */
const KEPT_ARTIFACTS = 3;

/** Dedup entries scanned (and at most removed) per commit of a prune. */
const PRUNE_BATCH = 10_000;

export class LmdbShopLog implements ShopLog {
  readonly #committed: ((shopId: string, head: number) => void)[] = [];
  /** What each shop's public key may store a day, counted in the appends' transactions. */
  readonly storefront: StorefrontQuotaTable;

  constructor(
    readonly dbs: Databases,
    quota: StorefrontQuota = NO_QUOTA,
  ) {
    this.storefront = new StorefrontQuotaTable(dbs, quota);
  }

  onCommitted(listener: (shopId: string, head: number) => void): void {
    this.#committed.push(listener);
  }

  #tell(shopId: string, head: number): void {
    for (const listener of this.#committed) listener(shopId, head);
  }

  /**
   * `also` (a replicated log's materialization) runs inside the same write transaction: so do the
   * others' below.
   */
  async appendEvents(shopId: string, events: readonly NewEvent[], receivedAt: number, dedupSince: number, sender: Sender = 'public', also?: Alongside<EventsAppended>): Promise<EventsAppended> {
    const { log, logHeads, dedup } = this.dbs;
    const charged = sender === 'public' && this.storefront.bounded;
    // A budget already spent is refused without a transaction (a day's count never goes down, so an
    // older read snapshot saying so is right); a follower records every outcome in its transaction.
    const spentUntil = charged && also === undefined ? this.storefront.spentUntil(shopId, receivedAt) : undefined;
    if (spentUntil !== undefined) return { first: logHeads.get(shopId) ?? 0, duplicateOf: events.map(() => undefined), refusedUntil: spentUntil };
    // Measured before the transaction (it holds every process's writes meanwhile).
    const bytes = charged ? events.map(({ event }) => storedEventBytes(event)) : undefined;
    let head = 0;
    const appended = await commitDurably(this.dbs, (): EventsAppended => {
      also?.check();
      // Read inside the write transaction: the latest head and index, whichever process wrote them.
      head = logHeads.get(shopId) ?? 0;
      const duplicateOf: (string | undefined)[] = new Array<string | undefined>(events.length).fill(undefined);
      const stored: NewEvent[] = [];
      /** messageIds of this append so far: a repeat inside it is a duplicate of the first. */
      const fresh = new Map<string, string>();
      let storedBytes = 0;
      for (let i = 0; i < events.length; i++) {
        const { eventId, event } = events[i]!;
        const messageId = event.messageId;
        if (messageId !== undefined) {
          const first = fresh.get(messageId);
          if (first !== undefined) {
            duplicateOf[i] = first;
            continue;
          }
          const known = dedup.get([shopId, dedupKey(sender, messageId)]);
          if (known !== undefined && (known.until !== undefined ? known.until >= receivedAt : known.at >= dedupSince)) {
            duplicateOf[i] = known.eventId;
            continue;
          }
          fresh.set(messageId, eventId);
        }
        stored.push(events[i]!);
        if (bytes !== undefined) storedBytes += bytes[i]!;
      }
      let appended: EventsAppended = { first: head, duplicateOf };
      const refusedUntil = charged ? this.storefront.charge(shopId, receivedAt, stored.length, storedBytes) : undefined;
      if (refusedUntil !== undefined) {
        appended = { first: head, duplicateOf, refusedUntil };
      } else if (stored.length > 0) {
        for (const { eventId, event } of stored) if (event.messageId !== undefined) dedup.put([shopId, dedupKey(sender, event.messageId)], dedupRecord(sender, event.messageId, eventId, receivedAt));
        const storedEvents = stored.map(({ event }) => event);
        log.put([shopId, head + 1], toEventsEntry(stored.map(({ eventId }) => eventId), storedEvents));
        indexEvents(this.dbs, shopId, head + 1, storedEvents);
        indexSessions(this.dbs, shopId, head + 1, storedEvents);
        logHeads.put(shopId, (head += stored.length));
        appended = { first: head - stored.length + 1, duplicateOf };
      }
      also?.record(appended);
      return appended;
    });
    if (appended.refusedUntil === undefined && appended.duplicateOf.includes(undefined)) this.#tell(shopId, head);
    return appended;
  }

  async eraseShop(shopId: string, also?: Alongside<number>): Promise<number> {
    const removed = await eraseShopRows(this.dbs, shopId, also);
    this.#tell(shopId, 0);
    return removed;
  }

  append(shopId: string, command: ShopCommand, at: number, also?: Alongside<{ change: ShopChange; position: number } | undefined>): Promise<{ change: ShopChange; position: number } | undefined> {
    return this.#appendChange(shopId, () => buildChange(this.dbs, shopId, command, at), at, also);
  }

  /** Appends the change `build` makes inside the write transaction, told the position it takes (undefined: nothing). */
  async #appendChange<C extends ShopChange>(shopId: string, build: (position: number) => C | undefined, at: number, also?: Alongside<{ change: C; position: number } | undefined>): Promise<{ change: C; position: number } | undefined> {
    const { log, logHeads } = this.dbs;
    const done = await commitDurably(this.dbs, () => {
      also?.check();
      const position = (logHeads.get(shopId) ?? 0) + 1;
      const change = build(position);
      let done: { change: C; position: number } | undefined;
      if (change !== undefined) {
        writeChange(this.dbs, shopId, change, position, at);
        log.put([shopId, position], { change, at });
        logHeads.put(shopId, position);
        done = { change, position };
      }
      also?.record(done);
      return done;
    });
    if (done !== undefined) this.#tell(shopId, done.position);
    return done;
  }

  async publishEaseFit(shopId: string, artifact: EaseArtifact, fittedThrough: number, at: number, also?: Alongside<number>): Promise<number> {
    const { artifacts } = this.dbs;
    const done = await this.#appendChange(shopId, (position) => {
      artifacts.put([shopId, position], artifact);
      // A process more than KEPT_ARTIFACTS fits behind, reaching an older entry, finds no artifact and keeps its fit.
      const kept = [...artifacts.getKeys({ start: [shopId, position], end: [shopId, 0], reverse: true })];
      for (const key of kept.slice(KEPT_ARTIFACTS)) artifacts.remove(key);
      return { kind: 'ease-fit', fittedThrough };
    }, at, also === undefined ? undefined : { check: () => also.check(), record: (done) => also.record(done!.position) });
    return done!.position;
  }

  easeFit(shopId: string, position: number): EaseArtifact | undefined {
    return this.dbs.artifacts.get([shopId, position]);
  }

  *read(shopId: string, after = 0, through = LAST_POSITION): Iterable<LogRecord> {
    const { log } = this.dbs;
    for (const { key, value } of log.getRange({ start: [shopId, entryAt(this.dbs, shopId, after + 1)], end: [shopId, through + 1] })) {
      const first = key[1];
      if (isChange(value)) {
        if (first > after) yield { position: first, change: value.change };
        continue;
      }
      const eventIds = entryIds(value.runs);
      const end = Math.min(eventIds.length, through - first + 1);
      for (let i = Math.max(0, after + 1 - first); i < end; i++) yield { position: first + i, eventId: eventIds[i]!, event: value.events[i]! };
    }
  }

  head(shopId: string, latest = false): number {
    if (latest) this.#dropReadSnapshot();
    return this.dbs.logHeads.get(shopId) ?? 0;
  }

  heads(latest = false): { shopId: string; head: number }[] {
    if (latest) this.#dropReadSnapshot();
    // Read whole before the caller acts on it: a cursor held open across another read's reset
    // keeps its old transaction alive for lmdb-js to hand out again.
    const heads: { shopId: string; head: number }[] = [];
    for (const { key, value } of this.dbs.logHeads.getRange()) heads.push({ shopId: key, head: value });
    return heads;
  }

  start(shopId: string, latest = false): number {
    if (latest) this.#dropReadSnapshot();
    return logStart(this.dbs, shopId);
  }

  prune(shopId: string, through: number, before: number): Promise<Pruned> {
    return pruneLog(this.dbs, shopId, through, before);
  }

  forgetErasedNames(shopId: string, through: number): Promise<number> {
    return forgetErasedNames(this.dbs, shopId, through);
  }

  /**
   * lmdb-js reads through one read transaction kept until a timer of the next loop turn: a read in
   * the same turn sees the database as it was when that transaction began, without commits other
   * processes made since (an IPC notice or a request naming their position may arrive in between).
   */
  #dropReadSnapshot(): void {
    this.dbs.root.resetReadTxn();
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
        if ((value.until ?? value.at) < before) stale.push(key);
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
