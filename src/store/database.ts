// Opens the LMDB environment and its named databases. Every key starts with the shop id, so one
// shop's data is one contiguous key range and never mixes with another's.
import { randomBytes } from 'node:crypto';
import { existsSync, statfsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import type { Rule } from '../engine/rules/rule.js';
import type { Product } from '../engine/product.js';
import type { TrackedEvent } from '../api/event.js';
import type { ExperimentRecord } from '../api/experiment.js';
import type { EaseArtifact, EventsEntry, StoredLogEntry } from './log-entry.js';
import type { ApiKeyRecord, DashboardSession, DedupRecord, LeaseRecord, ShopRecord, SnapshotRecord, StorefrontUsage, WriteOutcome } from './records.js';
import { StartupError } from '../errors.js';
import { commitDurably, handleUnclaimedCommitFailures, lmdbCommitter, type Committer } from './durable-commit.js';

export type { ApiKeyRecord, DedupRecord, KeyKind, ShopRecord, SnapshotRecord } from './records.js';

export interface Databases {
  /** The LMDB environment's directory. */
  path: string;
  root: RootDatabase;
  /** How the stores commit (commitDurably): LMDB's, unless a test wraps it. */
  committer: Committer;
  /**
   * [shopId, eventId] → event, as development versions before the log held events stored them.
   * Never written: a data dir that has any is refused at start (see checkLogLayout).
   */
  events: Database<TrackedEvent, [string, string]>;
  /**
   * [shopId, first position] → one entry of the shop's log (log-entry.ts): the events of one
   * append, at positions first, first + 1, …, or one change, at `first`. Positions are 1, 2, 3…
   * per shop, taken from `logHeads` in the transaction that stores the entry (see LmdbShopLog), so
   * they follow commit order whichever process wrote them. One value per append, not per event,
   * keeps the commit cheap and the tree small: a batch's value goes to overflow pages that are
   * written once and never read back while the server runs, where a tree of one key per event had
   * every leaf copied out of the map (resident) while it was the tail.
   */
  log: Database<StoredLogEntry, [string, number]>;
  /** shopId → the shop's last log position. */
  logHeads: Database<number, string>;
  /**
   * shopId → the first position its log still holds, once entries before it were dropped for
   * retention (store/log-retention.ts); absent: the log starts at 1.
   */
  logStarts: Database<number, string>;
  /**
   * [shopId, customerId, position] → the first position of the log entry that holds the event: one
   * row per event that names a customer, written in the append's transaction (store/customer-index.ts).
   */
  customerEvents: Database<number, [string, string, number]>;
  /**
   * [shopId, sessionId, first position of a log entry] → 1: one row per session and entry holding
   * events of it, written in the append's transaction (store/session-index.ts).
   */
  sessionEntries: Database<number, [string, string, number]>;
  /**
   * [shopId, position] → the time of a 'customer-erased' entry that still names its customer and
   * sessions: rewritten without them once a snapshot covers it (store/customer-erasure.ts).
   */
  erasuresNamed: Database<number, [string, number]>;
  /** [shopId, messageId] → the first eventId with that messageId. */
  dedup: Database<DedupRecord, [string, string]>;
  /** [shopId, productId] → product. */
  products: Database<Product, [string, string]>;
  /** shopId → shop. */
  shops: Database<ShopRecord, string>;
  /** SHA-256 (hex) of an API key → its shop and kind. Keys themselves are never stored. */
  apiKeys: Database<ApiKeyRecord, string>;
  /** shopId → the latest snapshot of its models: its header, large byte arrays replaced by part markers. */
  snapshots: Database<SnapshotRecord, string>;
  /**
   * shopId → the log position of its latest snapshot (its header's), written with it: the log's
   * retention reads it inside its own transaction without decoding the header.
   */
  snapshotPositions: Database<number, string>;
  /** [shopId, part index] → the raw bytes of one part of the shop's latest snapshot. */
  snapshotParts: Database<Uint8Array, [string, number]>;
  /** [shopId, experiment number] → the experiment (A/B tests of placements). */
  experiments: Database<ExperimentRecord, [string, number]>;
  /** [shopId, rule id] → the merchant's rule (PUT /api/rules/{id}). */
  rules: Database<Rule, [string, string]>;
  /** [shopId, position of its ease-fit log entry] → the fit (the last few per shop are kept: see LmdbShopLog.publishEaseFit). */
  artifacts: Database<EaseArtifact, [string, number]>;
  /** SHA-256 of a dashboard session's token → the session (store/dashboard-session-table.ts). */
  dashboardSessions: Database<DashboardSession, string>;
  /** shopId → what its public key stored today (store/storefront-quota.ts), written in the appends' transactions. */
  storefrontUsage: Database<StorefrontUsage, string>;
  /** name → the lease on work done by one process of the data dir (store/lease.ts). */
  leases: Database<LeaseRecord, string>;
  /** Facts about the data dir itself: 'logId' → the id its write positions carry (api/position-token.ts). */
  meta: Database<string, string>;
  /**
   * With a replicated log (PAIRWISE_NATS): 'seq' → the last stream sequence this node's log holds,
   * written in the transaction that materializes it (store/jetstream/log-follower.ts).
   */
  replicaState: Database<number, string>;
  /** With a replicated log: each write's message id → what materializing it stored, for its writer (kept minutes). */
  replicaOutcomes: Database<WriteOutcome, string>;
}

/** The least free space a new environment is created on (its lock file, first pages and some room). */
const MIN_FREE_TO_CREATE = 1 << 20;

/**
 * Refuses to create an environment on a disk with no room for it: LMDB maps its new lock file, and
 * on a full disk the first write into that map is a SIGBUS, which ends the process with no message.
 * An environment that exists opens as it is (its lock file's pages are there): reads go on.
 */
function checkRoomToCreate(path: string): void {
  const data = join(path, 'data.mdb');
  if (existsSync(data) && statSync(data).size > 0) return;
  let dir = path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const { bavail, bsize } = statfsSync(dir);
  const free = bavail * bsize;
  if (free < MIN_FREE_TO_CREATE) throw new Error(`no space left to create the database in ${path}: ${free} bytes free`);
}

/** The top-level fields of a stored event (TrackedEvent): the shapes worth a shared structure. */
const EVENT_FIELDS: ReadonlySet<string> = new Set(['type', 'productId', 'sessionId', 'customerId', 'widgetId', 'recId', 'metadata', 'messageId', 'timestamp', 'sender'] satisfies (keyof TrackedEvent)[]);
/**
 * Fields every stored event has: with the six optional ones, 64 shapes, twice the shared slots
 * msgpackr keeps (in the log, one of them goes to the entry's shape). A shop's senders use a few
 * shapes each; a shape seen after the slots are taken is written inline (larger, read alike).
 */
const REQUIRED_EVENT_FIELDS = ['type', 'productId', 'sessionId', 'timestamp'] satisfies (keyof TrackedEvent)[];

/** Whether a record's keys are an event's (not a metadata object's, which shoppers choose). */
function isEventShape(keys: readonly string[]): boolean {
  return keys.every((key) => EVENT_FIELDS.has(key)) && REQUIRED_EVENT_FIELDS.every((key) => keys.includes(key));
}

/** Where the events database keeps its shared structures: an entry beside the events. */
const EVENT_STRUCTURES_KEY = Symbol.for('structures');

/** Events stored in `events` by development versions before the log held them (the shared structures' entry is not one). */
export function eventsStoredById(dbs: Databases): number {
  const entries = (dbs.events.getStats() as { entryCount: number }).entryCount;
  return dbs.events.getBinary(EVENT_STRUCTURES_KEY as unknown as [string, string]) === undefined ? entries : entries - 1;
}

/** Entries of every shop's log together (the shared structures' entry beside them is not one): a stat, not a scan. */
export function logEntryCount(dbs: Databases): number {
  const entries = (dbs.log.getStats() as { entryCount: number }).entryCount;
  return dbs.log.getBinary(EVENT_STRUCTURES_KEY as unknown as [string, number]) === undefined ? entries : entries - 1;
}

/**
 * Refuses a data dir whose log a development version wrote before the log held its events (events
 * stored by id): this version cannot replay it. Snapshots are caches, the log is the data: such a
 * data dir is exported with that version's tools, or deleted.
 */
export function checkLogLayout(dbs: Databases): void {
  const byId = eventsStoredById(dbs);
  if (byId > 0) {
    throw new StartupError(`the data dir ${dbs.path} holds ${byId} events in the layout of a development version before 0.1 (events stored by id); this version cannot read it: start with an empty data dir`);
  }
}

/**
 * Events as msgpack records whose field names are stored once per database (msgpackr's shared
 * structures, kept under a symbol key that no range of shop keys reaches), not once per event:
 * 101 → 43 bytes for a typical event. Only event shapes (and the log entry's own) are shared:
 * metadata's keys come from shoppers, and a flood of invented ones would fill the 32 shared slots.
 * Any other shape is written inline, as every record was before; both decode alike.
 */
const EVENT_ENCODING = {
  encoding: 'msgpack',
  sharedStructuresKey: EVENT_STRUCTURES_KEY,
  shouldShareStructure: isEventShape,
} as const;

/** The fields of a log entry that holds its events (log-entry.ts). */
const EVENTS_ENTRY_FIELDS = ['runs', 'events'] satisfies (keyof EventsEntry)[];

const LOG_ENCODING = {
  encoding: 'msgpack',
  sharedStructuresKey: EVENT_STRUCTURES_KEY,
  shouldShareStructure: (keys: readonly string[]) =>
    isEventShape(keys) || (keys.length === EVENTS_ENTRY_FIELDS.length && EVENTS_ENTRY_FIELDS.every((key, i) => keys[i] === key)),
} as const;

export function openDatabases(path: string, committer: Committer = lmdbCommitter): Databases {
  checkRoomToCreate(path);
  // overlappingSync (lmdb-js's default on Linux) is off: with it, when one server process of the
  // data dir was killed (kill -9) while it held the write lock, the next process to write could
  // fail its commit with MDB_PANIC and abort (malloc heap corruption), taking a second server down
  // with the first (bench:replicas: 3 of 6 kills under writes did). Without it a commit syncs
  // before it resolves; writers that must be durable still wait for the flush (see commitDurably).
  // mapSize is where the map starts: lmdb-js's LMDB grows it as the file grows (mdb_page_alloc), so
  // it is the disk that fills, and then commits fail (see durable-commit.ts).
  const root = open({ path, compression: false, mapSize: 2 ** 34, maxDbs: 32, overlappingSync: false });
  handleUnclaimedCommitFailures(root);
  return {
    path,
    root,
    committer,
    events: root.openDB({ name: 'events', ...EVENT_ENCODING }),
    log: root.openDB({ name: 'log', ...LOG_ENCODING }),
    logHeads: root.openDB({ name: 'log-heads', encoding: 'msgpack' }),
    logStarts: root.openDB({ name: 'log-starts', encoding: 'msgpack' }),
    dedup: root.openDB({ name: 'dedup', encoding: 'msgpack' }),
    customerEvents: root.openDB({ name: 'customer-events', encoding: 'msgpack' }),
    sessionEntries: root.openDB({ name: 'session-entries', encoding: 'msgpack' }),
    erasuresNamed: root.openDB({ name: 'erasures-named', encoding: 'msgpack' }),
    products: root.openDB({ name: 'products', encoding: 'msgpack' }),
    shops: root.openDB({ name: 'shops', encoding: 'msgpack' }),
    apiKeys: root.openDB({ name: 'api-keys', encoding: 'msgpack' }),
    snapshots: root.openDB({ name: 'snapshots', encoding: 'msgpack' }),
    snapshotPositions: root.openDB({ name: 'snapshot-positions', encoding: 'msgpack' }),
    snapshotParts: root.openDB({ name: 'snapshot-parts', encoding: 'binary' }),
    experiments: root.openDB({ name: 'experiments', encoding: 'msgpack' }),
    rules: root.openDB({ name: 'rules', encoding: 'msgpack' }),
    artifacts: root.openDB({ name: 'artifacts', encoding: 'msgpack' }),
    storefrontUsage: root.openDB({ name: 'storefront-usage', encoding: 'msgpack' }),
    leases: root.openDB({ name: 'leases', encoding: 'msgpack' }),
    dashboardSessions: root.openDB({ name: 'dashboard-sessions', encoding: 'msgpack' }),
    meta: root.openDB({ name: 'meta', encoding: 'msgpack' }),
    replicaState: root.openDB({ name: 'replica-state', encoding: 'msgpack' }),
    replicaOutcomes: root.openDB({ name: 'replica-outcomes', encoding: 'msgpack' }),
  };
}

/** The data dir's log id (api/position-token.ts), made on first use: 8 random characters of a-z and 0-9. */
export async function ensureLogId(dbs: Databases): Promise<string> {
  const known = dbs.meta.get('logId');
  if (known !== undefined) return known;
  const made = randomBytes(8).reduce((id, byte) => id + (byte % 36).toString(36), '');
  // Read again in the write transaction: another process opening the same data dir may have made one.
  return commitDurably(dbs, () => {
    const current = dbs.meta.get('logId');
    if (current !== undefined) return current;
    dbs.meta.put('logId', made);
    return made;
  });
}

/** The key range of one shop's snapshot parts. */
export function snapshotPartRange(shopId: string): { start: [string, number]; end: [string, number] } {
  return { start: [shopId, 0], end: [shopId, 2 ** 31] };
}

/** Past every log position (positions are safe integers). */
export const LAST_POSITION = Number.MAX_SAFE_INTEGER;

/** Past every second key element: '\uffff' sorts after any id or ULID. */
const KEY_END = '\uffff';

/** The key range of one shop in a [shopId, id] database, from `afterId` on (inclusive: callers skip it). */
export function shopRange(shopId: string, afterId = ''): { start: [string, string]; end: [string, string] } {
  return { start: [shopId, afterId], end: [shopId, KEY_END] };
}

/** Distinct shops of a [shopId, id] database: one seek per shop, not a scan of every key. */
export function* shopIdsOf(db: Database<unknown, [string, string]>): Iterable<string> {
  let start: [string, string] | undefined;
  for (;;) {
    let next: [string, string] | undefined;
    for (const key of db.getKeys(start === undefined ? { limit: 1 } : { start, limit: 1 })) next = key;
    if (next === undefined) return;
    yield next[0];
    start = [next[0], KEY_END];
  }
}
