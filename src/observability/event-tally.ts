// What became of the events clients sent, for /metrics: stored, acknowledged as repeats, or refused
// by reason (the error code each refused event got). Counted where the event use cases decide, for
// the REST routes and the WebSocket alike.
import { counter, type MetricFamily } from './metric-family.js';

/** Why an event was not stored: its error code. */
export type EventRefusal = 'invalid_event' | 'invalid_customer_token' | 'too_many_new_sessions' | 'storefront_quota' | 'unavailable';

const REFUSALS: readonly EventRefusal[] = ['invalid_event', 'invalid_customer_token', 'too_many_new_sessions', 'storefront_quota', 'unavailable'];

export class EventTally {
  #stored = 0;
  #duplicates = 0;
  readonly #refused = new Map<EventRefusal, number>(REFUSALS.map((reason) => [reason, 0]));

  accepted(stored: number, duplicates: number): void {
    this.#stored += stored;
    this.#duplicates += duplicates;
  }

  refused(reason: EventRefusal, events = 1): void {
    this.#refused.set(reason, this.#refused.get(reason)! + events);
  }

  families(): MetricFamily[] {
    return [
      counter('pairwise_events_accepted_total', 'Events acknowledged (REST and WebSocket): stored, or repeats of a messageId already stored (nothing changed).', [
        [{ result: 'stored' }, this.#stored],
        [{ result: 'duplicate' }, this.#duplicates],
      ]),
      counter('pairwise_events_refused_total', 'Events not stored, by the error code they were answered with (a request refused by a rate limit is in pairwise_rate_limited_total instead).', [...this.#refused].map(([reason, count]) => [{ reason }, count] as const)),
    ];
  }
}
