// The event pipeline: one durable commit per call (group-committed with concurrent calls) that
// checks messageIds and appends in one transaction → apply to the shop's engine (the applier tells
// the listeners). An event is acknowledged only after all of it. The models follow the shop's log
// position by position (LogApplier): entries another process stored before a batch are applied
// before it.
import { monotonicFactory } from 'ulid';
import type { TrackedEvent } from '../api/event.js';
import { formatPosition } from '../api/position-token.js';
import { AppError, notStored } from '../errors.js';
import { EventTally } from '../observability/event-tally.js';
import type { EventsAppended, Sender, ShopLog } from '../store/shop-log.js';
import type { LogApplier } from './log-applier.js';

export interface Ingested {
  eventId: string;
  /** True when the messageId was seen before: nothing was stored or changed. */
  duplicate: boolean;
}

/** The 429 of a write the shop's storefront budget refused: Retry-After until the budget starts again. */
function quotaRefusal(until: number, now: number): AppError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000));
  return new AppError(
    'storefront_quota',
    `this shop's public key has stored its budget of events for the day (PAIRWISE_STOREFRONT_EVENTS_PER_DAY, PAIRWISE_STOREFRONT_MB_PER_DAY): nothing was stored; it starts again at ${new Date(until).toISOString()}, in ${seconds} s`,
    undefined,
    { 'retry-after': String(seconds), 'access-control-expose-headers': 'Retry-After' },
  );
}

export class EventPipeline {
  readonly #nextUlid = monotonicFactory();
  #closed = false;
  /** Events the storefront budget refused, per shop, since this process started. */
  readonly quotaRefusals = new Map<string, number>();
  /** What became of the events of this process's clients (the use cases that parse them count their refusals here too). */
  readonly tally = new EventTally();

  constructor(
    readonly log: ShopLog,
    /** Applies what is committed; undefined stores only (the CLI: the servers apply the log). */
    readonly applier: LogApplier | undefined,
    readonly dedupTtlMs: number,
    /** The log's id, which acknowledgements' positions carry (api/position-token.ts). */
    readonly logId: string,
  ) {}

  /** A log position as acknowledgements carry it. */
  positionToken(position: number): string {
    return formatPosition(this.logId, position);
  }

  /** Refuse new events from now on (graceful shutdown); commits under way finish. */
  close(): void {
    this.#closed = true;
  }

  /**
   * Ingests valid events (in order) in one durable commit, then applies them, their messageIds in
   * `sender`'s namespace (the merchant's, by default: the transports name the key's kind); resolves with each
   * event's result and the log position of the last one stored (the shop's head when every one was
   * a repeat). Rejects with AppError('unavailable'), or ('storefront_quota') when the shop's public key
   * has spent its budget for the day (nothing stored).
   */
  async ingest(shopId: string, events: readonly TrackedEvent[], now: number, sender: Sender = 'secret'): Promise<{ results: Ingested[]; position: number }> {
    if (this.#closed) {
      this.tally.refused('unavailable', events.length);
      throw new AppError('unavailable', 'the service is shutting down');
    }
    // The stored event says a secret key sent it: attribution trusts its price (engine/attribution).
    const fresh = events.map((event) => ({ eventId: 'evt_' + this.#nextUlid(now), event: sender === 'secret' ? { ...event, sender } : event }));
    let appended: EventsAppended;
    try {
      appended = await this.log.appendEvents(shopId, fresh, now, now - this.dedupTtlMs, sender);
    } catch (cause) {
      this.tally.refused('unavailable', events.length);
      throw notStored('events', cause);
    }
    if (appended.refusedUntil !== undefined) {
      this.quotaRefusals.set(shopId, (this.quotaRefusals.get(shopId) ?? 0) + events.length);
      this.tally.refused('storefront_quota', events.length);
      throw quotaRefusal(appended.refusedUntil, now);
    }
    const stored: TrackedEvent[] = [];
    const results = fresh.map(({ eventId, event }, i): Ingested => {
      const first = appended.duplicateOf[i];
      if (first !== undefined) return { eventId: first, duplicate: true };
      stored.push(event);
      return { eventId, duplicate: false };
    });
    this.tally.accepted(stored.length, events.length - stored.length);
    if (stored.length > 0) await this.applier?.applyBatch(shopId, appended.first, stored);
    return { results, position: stored.length > 0 ? appended.first + stored.length - 1 : appended.first };
  }
}
