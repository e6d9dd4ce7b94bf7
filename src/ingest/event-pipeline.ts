// The event pipeline: dedup → durable commit (one per call, group-committed with concurrent calls)
// → apply to the shop's engine → tell listeners. An event is acknowledged only after all of it.
// The models follow the shop's log position by position (LogApplier): events another process
// stored before a batch (a CLI import into the data dir) are applied before it.
import { monotonicFactory } from 'ulid';
import type { TrackedEvent } from '../api/event.js';
import { AppError } from '../errors.js';
import type { EventLog } from '../store/event-log.js';
import { LogApplier } from './log-applier.js';
import type { ShopEngines } from './shop-engines.js';

export interface Ingested {
  eventId: string;
  /** True when the messageId was seen before: nothing was stored or changed. */
  duplicate: boolean;
}

/** Called after events are committed and applied, e.g. to push live updates. */
export type AppliedListener = (shopId: string, events: readonly TrackedEvent[]) => void;

interface InFlight {
  eventId: string;
  /** Resolves true once committed, false if the commit failed. */
  committed: Promise<boolean>;
}

export class EventPipeline {
  readonly #nextUlid = monotonicFactory();
  /** messageIds being committed right now: a concurrent repeat waits for the first one's commit. */
  readonly #inFlight = new Map<string, InFlight>();
  readonly #listeners: AppliedListener[] = [];
  readonly #applier: LogApplier | undefined;
  #closed = false;

  constructor(
    readonly log: EventLog,
    /** The models to apply events to; undefined stores them only (the CLI: the server replays them). */
    engines: ShopEngines | undefined,
    readonly dedupTtlMs: number,
    /** Events a catch-up applies per turn of the event loop (see LogApplier). */
    catchUpSlice?: number,
  ) {
    this.#applier = engines && new LogApplier(log, engines, (shopId, events) => {
      for (const listener of this.#listeners) listener(shopId, events);
    }, catchUpSlice);
  }

  onApplied(listener: AppliedListener): void {
    this.#listeners.push(listener);
  }

  /** Refuse new events from now on (graceful shutdown); commits under way finish. */
  close(): void {
    this.#closed = true;
  }

  /** Ingests valid events (in order) in one durable commit. Rejects with AppError('unavailable'). */
  async ingest(shopId: string, events: readonly TrackedEvent[], now: number): Promise<Ingested[]> {
    if (this.#closed) throw new AppError('unavailable', 'the service is shutting down');
    const results: (Ingested | InFlight)[] = [];
    const fresh: { eventId: string; event: TrackedEvent }[] = [];
    const batchIds = new Map<string, string>();
    for (const event of events) {
      const messageId = event.messageId;
      const known = messageId === undefined ? undefined : this.#known(shopId, messageId, now, batchIds);
      if (known !== undefined) {
        results.push(typeof known === 'string' ? { eventId: known, duplicate: true } : known);
        continue;
      }
      const eventId = 'evt_' + this.#nextUlid(now);
      if (messageId !== undefined) batchIds.set(messageId, eventId);
      fresh.push({ eventId, event });
      results.push({ eventId, duplicate: false });
    }
    if (fresh.length > 0) await this.#commit(shopId, fresh, batchIds, now);
    return Promise.all(results.map(settled));
  }

  #known(shopId: string, messageId: string, now: number, batchIds: Map<string, string>): string | InFlight | undefined {
    return (
      batchIds.get(messageId) ??
      this.#inFlight.get(shopId + '\u0000' + messageId) ??
      this.log.findByMessageId(shopId, messageId, now - this.dedupTtlMs)
    );
  }

  async #commit(shopId: string, fresh: { eventId: string; event: TrackedEvent }[], batchIds: Map<string, string>, now: number): Promise<void> {
    let settle!: (ok: boolean) => void;
    const committed = new Promise<boolean>((resolve) => (settle = resolve));
    const keys: string[] = [];
    for (const [messageId, eventId] of batchIds) {
      const key = shopId + '\u0000' + messageId;
      keys.push(key);
      this.#inFlight.set(key, { eventId, committed });
    }
    let first: number;
    try {
      first = await this.log.append(shopId, fresh, now);
      settle(true);
    } catch (cause) {
      settle(false);
      throw new AppError('unavailable', `events could not be stored: ${(cause as Error).message}`);
    } finally {
      for (const key of keys) this.#inFlight.delete(key);
    }
    await this.#applier?.applyBatch(shopId, first, fresh);
  }
}

/** A repeat of an event another request is committing is a duplicate once that commit succeeds. */
async function settled(result: Ingested | InFlight): Promise<Ingested> {
  if (!('committed' in result)) return result;
  if (!(await result.committed)) throw new AppError('unavailable', 'the first copy of this event could not be stored');
  return { eventId: result.eventId, duplicate: true };
}
