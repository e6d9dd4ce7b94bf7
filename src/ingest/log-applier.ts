// Applies each shop's event log to its models in log order, position by position, so that the
// position a snapshot records covers every event at or before it. A committed batch is applied
// after the events before it that the models lack: another process's (a CLI import into the data
// dir), read back from the log, or an earlier batch of ours whose continuation has not run yet.
// A long run of those (a large import) is applied a slice per turn of the event loop with the shop
// held (ShopEngines.hold), so other shops are served meanwhile and this shop's writers wait.
import type { TrackedEvent } from '../api/event.js';
import type { EventLog } from '../store/event-log.js';
import type { ShopEngines } from './shop-engines.js';

/** Events read back and applied per turn of the event loop (~10-30 ms of apply). */
export const CATCH_UP_SLICE = 2_000;

/** Lets the event loop run other work before the next slice. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class LogApplier {
  constructor(
    readonly log: EventLog,
    readonly engines: ShopEngines,
    /** Told of every run of events applied, in log order. */
    readonly applied: (shopId: string, events: readonly TrackedEvent[]) => void,
    readonly slice = CATCH_UP_SLICE,
    /** What a catch-up awaits between slices (tests may count or hold it). */
    readonly pause: () => Promise<void> = nextTurn,
  ) {}

  /** Brings the shop's models to the batch's last position; the batch starts at log position `first`. */
  async applyBatch(shopId: string, first: number, batch: readonly { event: TrackedEvent }[]): Promise<void> {
    for (;;) {
      // Held by a snapshot copying the models, or by another batch's catch-up: apply (and ack) after it.
      for (let held = this.engines.changesWait(shopId); held !== undefined; held = this.engines.changesWait(shopId)) await held;
      if (first - 1 - this.engines.position(shopId) <= this.slice) break;
      await this.#catchUp(shopId, first - 1);
    }
    // Not held, and nothing awaited since that was checked: the rest is one synchronous step.
    const applied = this.engines.position(shopId);
    const last = first + batch.length - 1;
    if (last <= applied) return; // a later batch's catch-up applied (and announced) these
    const events: TrackedEvent[] = [];
    if (applied < first - 1) for (const { event } of this.log.readShop(shopId, applied, first - 1)) events.push(event);
    for (let i = Math.max(0, applied + 1 - first); i < batch.length; i++) events.push(batch[i]!.event);
    this.#apply(shopId, events, last);
  }

  /** Applies the log through `through`, a slice per turn, holding the shop meanwhile. */
  async #catchUp(shopId: string, through: number): Promise<void> {
    const release = this.engines.hold(shopId);
    try {
      for (let from = this.engines.position(shopId); from < through; from = this.engines.position(shopId)) {
        const to = Math.min(through, from + this.slice);
        const events: TrackedEvent[] = [];
        for (const { event } of this.log.readShop(shopId, from, to)) events.push(event);
        this.#apply(shopId, events, to);
        if (to < through) await this.pause();
      }
    } finally {
      release();
    }
  }

  #apply(shopId: string, events: TrackedEvent[], position: number): void {
    const engine = this.engines.get(shopId);
    for (const event of events) engine.apply(event);
    this.engines.noteApplied(shopId, position);
    this.applied(shopId, events);
  }
}
