// One log entry: an append of events, or one change of anything else that alters a shop's answers
// (its catalog, its record and keys, its experiments and rules). Each event takes one log position, each
// change one. The eventIds of an append are stored as runs of consecutive ids: a ULID's last 16
// characters are its random part, and monotonicFactory makes the ids of one millisecond by
// incrementing it, so a batch's ids (all made with one `now`) are one run: [firstId, count]
// instead of 100 ids of 30 characters, a fifth of the log's bytes per event. Ids that do not
// follow (other writers, other clocks) start a new run.
import type { TrackedEvent } from '../api/event.js';
import type { ExperimentRecord } from '../api/experiment.js';
import type { PortableEaseFit } from '../engine/ease/portable-fit.js';
import type { Product } from '../engine/product.js';
import type { Rule } from '../engine/rules/rule.js';
import type { ApiKeyRecord, ShopRecord } from './records.js';

/** EventIds as stored: [firstId, count, firstId, count, …]. */
export type EventIdRuns = readonly (string | number)[];

/** An append as stored: its eventIds (as runs) and its events, in log order. */
export interface EventsEntry {
  runs: EventIdRuns;
  events: readonly TrackedEvent[];
}

/**
 * A change to a shop other than its events, as the log carries it: whole records, so that applying
 * the log alone rebuilds every table and model (the tables beside the log are written in the same
 * transaction, as a view of it). Keys are carried as their SHA-256 only, as they are stored.
 */
export type ShopChange =
  | { kind: 'products'; products: readonly Product[] }
  | { kind: 'product-removed'; productId: string }
  | { kind: 'shop'; record: ShopRecord }
  | { kind: 'key-added'; hash: string; record: ApiKeyRecord }
  | { kind: 'key-revoked'; hash: string }
  | { kind: 'experiment'; record: ExperimentRecord }
  /** A merchant's rule stored (added or replaced) … */
  | { kind: 'rule'; rule: Rule }
  /** … or removed. */
  | { kind: 'rule-removed'; ruleId: string }
  /** A new EASE fit of the shop's models through log position `fittedThrough`; its rows are the artifact stored at this entry's position. */
  | { kind: 'ease-fit'; fittedThrough: number }
  /**
   * A customer erased (DELETE /api/customers/{id}): every model forgets the customer and the
   * sessions of their events. Their events were rewritten as 'event-erased' in the same commit.
   */
  | { kind: 'customer-erased'; customerId: string; sessionIds: readonly string[]; events?: number }
  /**
   * A 'customer-erased' entry once a snapshot covered it, rewritten without the customer and the
   * sessions it named (store/customer-erasure.ts): models that have not applied it restore that snapshot.
   */
  | { kind: 'erasure-done'; events: number }
  /** A platform's order cancelled: attribution takes back the orders and revenue its purchases counted (engine/attribution). */
  | { kind: 'order-cancelled'; orderId: string }
  /** Where an erased customer's event was: it keeps its position (positions stay contiguous) and changes nothing. */
  | { kind: 'event-erased' };

/**
 * The default case of a switch over ShopChange kinds: a kind without its case does not compile
 * (`change` is never there). At run time only a kind a newer version wrote gets here, which this
 * version has nothing to do with (as an older process of a rolling upgrade reads the log).
 */
export function unknownChange(change: never): void {
  void change;
}

/** What an ease-fit entry's artifact holds: the fit as every process installs it. */
export type EaseArtifact = PortableEaseFit;

/** A change as stored, with the time it was written (epoch ms, from the writer's clock). */
export interface ChangeEntry {
  change: ShopChange;
  at: number;
}

/** A log value: an append's events, or one change. */
export type StoredLogEntry = EventsEntry | ChangeEntry;

/** Whether the entry is a change (one position) rather than events (one position each). */
export function isChange(entry: StoredLogEntry): entry is ChangeEntry {
  return (entry as ChangeEntry).change !== undefined;
}

/** The entry to store for an append: its events and their ids, in log order. */
export function toEventsEntry(ids: readonly string[], events: readonly TrackedEvent[]): EventsEntry {
  return { runs: toLogEntry(ids), events };
}

/** Crockford's base32, the alphabet of ULIDs, in value order. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Characters at the end of an id that count up within a run (a ULID's random part). */
const COUNTER_CHARS = 16;
/** Each character code's value in ALPHABET, -1 for any other (read with charCodeAt: no regex, no split). */
const VALUE = new Int8Array(128).fill(-1);
for (let v = 0; v < ALPHABET.length; v++) VALUE[ALPHABET.charCodeAt(v)] = v;

function valueAt(id: string, index: number): number {
  const code = id.charCodeAt(index);
  return code < 128 ? VALUE[code]! : -1;
}

/**
 * The id after `id` in a run: its last COUNTER_CHARS characters incremented as a base32 number;
 * undefined when they are not base32 or are all at their largest digit (a run ends there).
 */
export function nextInRun(id: string): string | undefined {
  const end = id.length;
  const from = end - COUNTER_CHARS;
  if (from < 0) return undefined;
  for (let i = from; i < end; i++) if (valueAt(id, i) < 0) return undefined;
  // The rightmost digit that is not the largest goes up by one; every digit after it wraps to the smallest.
  let i = end - 1;
  while (i >= from && valueAt(id, i) === ALPHABET.length - 1) i--;
  if (i < from) return undefined;
  return id.slice(0, i) + ALPHABET[valueAt(id, i) + 1]! + ALPHABET[0]!.repeat(end - 1 - i);
}

/** The runs of an append's ids. */
export function toLogEntry(ids: readonly string[]): (string | number)[] {
  const entry: (string | number)[] = [];
  let i = 0;
  while (i < ids.length) {
    const first = ids[i]!;
    let count = 1;
    for (let expected = nextInRun(first); expected !== undefined && ids[i + count] === expected; expected = nextInRun(expected)) count++;
    entry.push(first, count);
    i += count;
  }
  return entry;
}

/** The ids of an append's runs, in order. */
export function entryIds(entry: EventIdRuns): string[] {
  const ids: string[] = [];
  for (let r = 0; r < entry.length; r += 2) {
    let id = entry[r] as string;
    const count = entry[r + 1] as number;
    for (let k = 0; k < count; k++) {
      ids.push(id);
      if (k + 1 < count) id = nextInRun(id)!;
    }
  }
  return ids;
}
