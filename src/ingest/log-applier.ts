// Applies each shop's log to its models in log order, position by position, so that the position
// a snapshot records covers every entry at or before it, and every process that applies the same
// log holds the same models. A write of this process is applied after the entries before it that
// the models lack: another process's (another server, a CLI import into the data dir), read back
// from the log, or an earlier write of ours whose continuation has not run yet. A long run of those
// (a large import, a server catching up) is applied a slice per turn of the event loop with the
// shop held (ShopEngines.hold), so other shops are served meanwhile and this shop's writers wait.
import type { TrackedEvent } from '../api/event.js';
import type { ShopEngine } from '../engine/shop-engine.js';
import { eraseCustomer } from '../engine/customer-state.js';
import type { CustomerRebuild } from './customer-rebuild.js';
import type { ExperimentRecord } from '../api/experiment.js';
import { unknownChange, type EaseArtifact, type ShopChange } from '../store/log-entry.js';
import type { LogRecord, ShopLog } from '../store/shop-log.js';
import type { ShopRecord } from '../store/records.js';
import type { ShopEngines } from '../engine/shop-engines.js';

/** Events read back and applied per turn of the event loop (~10-30 ms of apply). */
export const CATCH_UP_SLICE = 2_000;

/** Lets the event loop run other work before the next slice. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Who hears of an applied change beside the models: what it means to the layers above. */
export interface ChangeListeners {
  /** A change that may alter the shop's answers: its catalog, its rules, its settings, an erasure. */
  answersChanged(shopId: string): void;
  /** The shop's keys or record changed; `revoked`: a key may be gone or an origin no longer allowed. */
  keysChanged(shopId: string, revoked: boolean): void;
  /** The shop's record changed (its settings, its platform connections, its feed): `record` as it is now. */
  shopChanged(shopId: string, record: ShopRecord): void;
  /** An experiment was created, started, stopped or concluded. */
  experimentChanged(shopId: string, record: ExperimentRecord): void;
  /** A customer was erased from the models (the snapshot on disk still holds them). */
  customerErased(shopId: string): void;
}

/** Told of what was applied, in log order, whoever wrote it. */
export interface AppliedListeners extends ChangeListeners {
  /** A run of events, applied. */
  events(shopId: string, events: readonly TrackedEvent[]): void;
  /** The shop's models now stand for its log through `position`. */
  position?(shopId: string, position: number): void;
}

/** Listeners that hear nothing (replay at start: nobody is listening yet). */
export const NO_LISTENERS: ChangeListeners = { answersChanged() {}, keysChanged() {}, shopChanged() {}, experimentChanged() {}, customerErased() {} };

/**
 * Applies the change at `position`: what it does to the shop's models, and whom it tells. One case
 * per kind of change, so a new kind does not compile until it is handled here. A shop record's
 * registered widgets go to attribution and its recency to the engine; an EASE fit is read from its
 * artifact (one no longer kept, when this process was more fits behind than are kept, leaves the
 * installed fit in place); keys and experiments are the listeners' to apply.
 */
export function applyChange(shopId: string, engine: ShopEngine, change: ShopChange, position: number, fitAt: (position: number) => EaseArtifact | undefined, tell: ChangeListeners): void {
  switch (change.kind) {
    case 'products':
      for (const product of change.products) engine.upsertProduct(product);
      return tell.answersChanged(shopId);
    case 'product-removed':
      engine.removeProduct(change.productId);
      return tell.answersChanged(shopId);
    case 'shop':
      engine.registerWidgets(change.record.widgets ?? []);
      engine.setRecency(change.record.recency ?? 'auto');
      // Origins and signing secrets live in the record: a caller allowed before may not be now.
      tell.keysChanged(shopId, true);
      tell.shopChanged(shopId, change.record);
      return tell.answersChanged(shopId);
    case 'key-added':
      return tell.keysChanged(shopId, false);
    case 'key-revoked':
      return tell.keysChanged(shopId, true);
    case 'experiment':
      return tell.experimentChanged(shopId, change.record);
    case 'rule':
      engine.setRule(change.rule.id, change.rule);
      return tell.answersChanged(shopId);
    case 'rule-removed':
      engine.setRule(change.ruleId, undefined);
      return tell.answersChanged(shopId);
    case 'ease-fit': {
      // Live lists follow it at their next recompute: a refit is not worth a push of every list.
      const artifact = fitAt(position);
      if (artifact !== undefined) engine.installPortableFit(artifact);
      return;
    }
    case 'order-cancelled':
      // Attribution's totals take the order back; no answer depends on them.
      engine.cancelOrder(change.orderId);
      return;
    case 'customer-erased':
      eraseCustomer(engine, change.customerId, change.sessionIds);
      tell.customerErased(shopId);
      return tell.answersChanged(shopId);
    case 'erasure-done': // the erasure it rewrote was applied when it was a 'customer-erased'
    case 'event-erased': // a position kept, nothing in it
      return;
    default:
      return unknownChange(change);
  }
}

export interface LogApplierOptions {
  /** Events read back and applied per turn of the event loop (default CATCH_UP_SLICE). */
  slice?: number;
  /** What a catch-up awaits between slices (tests may count or hold it). */
  pause?: () => Promise<void>;
  /**
   * Restores the shop's models from its latest snapshot (ingest/replay.ts, restoreShop), for
   * models that lack entries the log no longer holds (pruned for retention while this process
   * had not applied them); false when there is none to restore (the default).
   */
  restore?: (shopId: string) => boolean;
  /** Refills an evicted customer from the log before their next event (none: evicted customers start anew). */
  customers?: CustomerRebuild;
}

export class LogApplier {
  readonly slice: number;
  readonly pause: () => Promise<void>;
  readonly restore: (shopId: string) => boolean;
  readonly customers: CustomerRebuild | undefined;

  constructor(
    readonly log: ShopLog,
    readonly engines: ShopEngines,
    readonly listeners: AppliedListeners,
    options: LogApplierOptions = {},
  ) {
    this.slice = options.slice ?? CATCH_UP_SLICE;
    this.pause = options.pause ?? nextTurn;
    this.restore = options.restore ?? (() => false);
    this.customers = options.customers;
  }

  /** Brings the shop's models to the batch's last position; the batch's events are at log positions `first`, `first + 1`, …. */
  async applyBatch(shopId: string, first: number, batch: readonly TrackedEvent[]): Promise<void> {
    await this.#catchUpBefore(shopId, first);
    // Not held, and nothing awaited since that was checked: the rest is one synchronous step.
    const last = first + batch.length - 1;
    if (last <= this.engines.position(shopId)) return; // a later write's catch-up applied (and announced) these
    const records = this.#lacking(shopId, first - 1);
    // Past `first` when the models were just restored from a snapshot that covers some of the batch.
    const applied = this.engines.position(shopId);
    for (let i = Math.max(0, applied + 1 - first); i < batch.length; i++) records.push({ position: first + i, eventId: '', event: batch[i]! });
    this.#apply(shopId, records, Math.max(last, applied));
  }

  /** Brings the shop's models to log position `through` (at least), reading what they lack from the log. */
  async applyThrough(shopId: string, through: number): Promise<void> {
    await this.#catchUpBefore(shopId, through);
    if (through <= this.engines.position(shopId)) return;
    const records = this.#lacking(shopId, through);
    this.#apply(shopId, records, Math.max(through, this.engines.position(shopId)));
  }

  /**
   * The records the shop's models lack through `through`. When the log no longer holds them (its
   * start moved past them for retention), or holds an erasure rewritten without the names it held
   * ('erasure-done': a snapshot covers it), the models are first restored from the latest
   * snapshot, which covers everything the log dropped or forgot, and what follows it is read instead.
   */
  #lacking(shopId: string, through: number): LogRecord[] {
    const after = this.engines.position(shopId);
    if (through <= after) return [];
    const records = this.#records(shopId, after, through);
    if (records !== undefined) {
      // With no snapshot to restore (models built from the log alone), the erased events are not in them either.
      if (!records.some((record) => record.change?.kind === 'erasure-done') || !this.restore(shopId)) return records;
    } else {
      const start = this.log.start(shopId, true);
      // With no snapshot to restore, the dropped entries are gone for good, as for a start without one (replay.ts).
      if (!this.restore(shopId) || this.engines.position(shopId) < start - 1) this.engines.noteApplied(shopId, start - 1);
    }
    // Events the listeners never heard of are in the models now: live lists are recomputed as after a run of events.
    this.listeners.events(shopId, []);
    const from = this.engines.position(shopId);
    if (through <= from) return [];
    const rest = this.#records(shopId, from, through);
    if (rest === undefined) throw new Error(`shop "${shopId}": the log starts at ${this.log.start(shopId, true)}, after ${from}, the position restored`);
    return rest;
  }

  /**
   * The log's records after `after` through `through`, each position once. A read through this
   * process's read snapshot may predate another process's commit (see ShopLog.head): then the
   * snapshot is dropped and the read made again; undefined when the log no longer starts at or
   * before `after + 1` (pruned); a log that still lacks positions is an error, never a gap applied
   * as if it were there.
   */
  #records(shopId: string, after: number, through: number): LogRecord[] | undefined {
    let records = [...this.log.read(shopId, after, through)];
    if (records.length < through - after) {
      this.log.head(shopId, true);
      if (after + 1 < this.log.start(shopId)) return undefined;
      records = [...this.log.read(shopId, after, through)];
    }
    if (records.length !== through - after) throw new Error(`shop "${shopId}": the log holds ${records.length} positions after ${after} through ${through}, not ${through - after}`);
    return records;
  }

  /** Returns once the shop is not held and lacks at most a slice before `position`. */
  async #catchUpBefore(shopId: string, position: number): Promise<void> {
    for (;;) {
      // Held by a snapshot copying the models, or by another write's catch-up: apply (and ack) after it.
      for (let held = this.engines.changesWait(shopId); held !== undefined; held = this.engines.changesWait(shopId)) await held;
      if (position - 1 - this.engines.position(shopId) <= this.slice) return;
      await this.#catchUp(shopId, position - 1);
    }
  }

  /** Applies the log through `through`, a slice per turn, holding the shop meanwhile. */
  async #catchUp(shopId: string, through: number): Promise<void> {
    const release = this.engines.hold(shopId);
    try {
      for (let from = this.engines.position(shopId); from < through; from = this.engines.position(shopId)) {
        const to = Math.min(through, from + this.slice);
        const records = this.#lacking(shopId, to);
        this.#apply(shopId, records, Math.max(to, this.engines.position(shopId)));
        if (this.engines.position(shopId) < through) await this.pause();
      }
    } finally {
      release();
    }
  }

  /** Applies the records in order, telling the listeners of each run of events and each change. */
  #apply(shopId: string, records: readonly LogRecord[], position: number): void {
    const engine = this.engines.get(shopId);
    let events: TrackedEvent[] = [];
    for (const record of records) {
      if (record.event !== undefined) {
        const customerId = record.event.customerId;
        if (customerId !== undefined && this.customers !== undefined) this.customers.ensure(shopId, engine, customerId, record.position);
        engine.apply(record.event);
        events.push(record.event);
        continue;
      }
      if (events.length > 0) {
        this.listeners.events(shopId, events);
        events = [];
      }
      // Noted first: the listeners the change tells see the models stand for the log through it.
      this.engines.noteApplied(shopId, record.position);
      applyChange(shopId, engine, record.change, record.position, (at) => this.log.easeFit(shopId, at), this.listeners);
    }
    this.engines.noteApplied(shopId, position);
    if (events.length > 0) this.listeners.events(shopId, events);
    this.listeners.position?.(shopId, position);
  }
}
