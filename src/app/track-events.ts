// The two event use cases of POST /api/events(/batch) and the stream's event ops: one event, or a
// batch judged event by event. The caller is admitted by its transport; here its events' customers
// are proven (or dropped) and their new sessions bounded, then they are stored durably and applied.
import { parseEvent, type EventError, type TrackedEvent } from '../api/event.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import { AppError } from '../errors.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { Sender } from '../store/shop-log.js';
import type { CustomerIdentity } from './customer-identity.js';
import { newSessionGate, type NewSessionBudget, type SessionGate } from './new-sessions.js';
import type { Principal } from './principal.js';

/**
 * The customerId an event may be recorded under, given the one it claims and the customer token it
 * carried; undefined: only its session (see app/customer-identity.ts).
 */
export type CustomerCheck = (claimed: string | undefined, customerToken: string | undefined) => string | undefined;

/** How events are stored: when (epoch ms), for which kind of key, their customers checked and their new sessions gated as given. */
export interface TrackOptions {
  now: number;
  sender: Sender;
  /** Default: each event's customerId is taken as claimed (a trusted writer). */
  customers?: CustomerCheck;
  /** Default: no bound on new sessions. */
  sessions?: SessionGate;
}

/** Who sends the events, as its transport admitted it. */
export interface EventCaller {
  principal: Principal;
  /** Its client's rate-limit bucket (undefined: not limited): new sessions are charged to it. */
  client: string | undefined;
  /** The request's raw query string, which a Shopify app proxy may sign (REST only). */
  query?: string;
  /** Epoch ms: the events' default time. */
  now: number;
}

const TRUSTED: CustomerCheck = (claimed) => claimed;

/** The event use cases for a caller a transport admitted (REST and WebSocket alike). */
export class EventTracking {
  constructor(
    readonly pipeline: EventPipeline,
    readonly identity: CustomerIdentity,
    readonly engines: ShopEngines,
    readonly newSessions: NewSessionBudget,
  ) {}

  /** One event: see trackEvent. */
  track(input: unknown, caller: EventCaller): Promise<EventAck> {
    return trackEvent(this.pipeline, caller.principal.shopId, input, this.#options(caller));
  }

  /** A batch's events, each judged alone: see trackBatch. */
  trackBatch(inputs: readonly unknown[], caller: EventCaller): Promise<BatchResponse> {
    return trackBatch(this.pipeline, caller.principal.shopId, inputs, this.#options(caller));
  }

  #options({ principal, client, query, now }: EventCaller): TrackOptions {
    const sessions = newSessionGate(this.newSessions, this.engines, client, principal);
    return {
      now,
      sender: principal.kind,
      customers: (claimed, customerToken) => this.identity.customerId(principal, claimed, { customerToken, query }, now),
      ...(sessions === undefined ? {} : { sessions }),
    };
  }
}

/** A per-event refusal in a batch: a token that does not prove its customer, or a new session over the bound. */
type EventRefusal = { code: 'invalid_customer_token' | 'too_many_new_sessions'; pointer: string; detail: string };

/** The event as it may be stored: its customerId proven (or dropped), its token gone. */
function withProvenCustomer(event: TrackedEvent, customerToken: string | undefined, check: CustomerCheck): TrackedEvent {
  const customerId = check(event.customerId, customerToken);
  if (customerId === event.customerId) return event;
  const { customerId: _claimed, ...rest } = event;
  return customerId === undefined ? rest : { ...rest, customerId };
}

export interface EventAck {
  success: true;
  eventId: string;
  duplicate?: true;
  /** Where the shop's log stood after this write: `after=` with it reads the write from any server process. */
  position: string;
}

export type BatchResult =
  | { index: number; success: true; eventId: string; duplicate?: true }
  | { index: number; success: false; error: EventError | EventRefusal };

export interface BatchResponse {
  /** True when no event was rejected. */
  success: boolean;
  /** Events newly stored. */
  accepted: number;
  /** Events whose messageId was already stored: acknowledged with the first eventId. */
  duplicates: number;
  rejected: number;
  results: BatchResult[];
  /** As EventAck's; with no event stored, where the shop's log stood. */
  position: string;
}

/** Throws AppError('invalid_event') with every field error, ('invalid_customer_token'), ('too_many_new_sessions') or ('unavailable'). */
export async function trackEvent(pipeline: EventPipeline, shopId: string, input: unknown, { now, sender, customers = TRUSTED, sessions: gate }: TrackOptions): Promise<EventAck> {
  const parsed = parseEvent(input, now);
  if (!parsed.ok) {
    pipeline.tally.refused('invalid_event');
    const first = parsed.errors[0]!;
    throw new AppError('invalid_event', `${first.pointer || 'event'} ${first.detail}`, parsed.errors.map(({ pointer, detail }) => ({ pointer, detail })));
  }
  let event: TrackedEvent;
  try {
    event = withProvenCustomer(parsed.event, parsed.customerToken, customers);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_customer_token') pipeline.tally.refused('invalid_customer_token');
    throw error;
  }
  const refusal = gate?.(event.sessionId);
  if (refusal !== undefined) {
    pipeline.tally.refused('too_many_new_sessions');
    throw refusal;
  }
  const { results, position } = await pipeline.ingest(shopId, [event], now, sender);
  const [result] = results;
  const token = pipeline.positionToken(position);
  return result!.duplicate ? { success: true, eventId: result!.eventId, duplicate: true, position: token } : { success: true, eventId: result!.eventId, position: token };
}

/** Stores the valid events of a batch in one commit and reports each event's fate by its index. */
export async function trackBatch(pipeline: EventPipeline, shopId: string, inputs: readonly unknown[], { now, sender, customers = TRUSTED, sessions: gate }: TrackOptions): Promise<BatchResponse> {
  const results: BatchResult[] = new Array(inputs.length);
  const valid: TrackedEvent[] = [];
  const validIndex: number[] = [];
  inputs.forEach((input, index) => {
    const parsed = parseEvent(input, now, `/events/${index}`);
    if (parsed.ok) {
      let event: TrackedEvent;
      try {
        event = withProvenCustomer(parsed.event, parsed.customerToken, customers);
      } catch (error) {
        // A token that does not prove its customer: this event is refused (never stored without its customer).
        if (!(error instanceof AppError) || error.code !== 'invalid_customer_token') throw error;
        results[index] = { index, success: false, error: { code: 'invalid_customer_token', pointer: `/events/${index}/customerToken`, detail: error.detail } };
        return;
      }
      const refusal = gate?.(event.sessionId);
      if (refusal !== undefined) {
        results[index] = { index, success: false, error: { code: 'too_many_new_sessions', pointer: `/events/${index}/sessionId`, detail: refusal.detail } };
        return;
      }
      valid.push(event);
      validIndex.push(index);
    } else {
      const first = parsed.errors[0]!;
      results[index] = { index, success: false, error: { code: 'invalid_event', pointer: first.pointer, detail: first.detail } };
    }
  });
  for (const result of results) if (result !== undefined && !result.success) pipeline.tally.refused(result.error.code);
  const { results: ingested, position } = valid.length > 0 ? await pipeline.ingest(shopId, valid, now, sender) : { results: [], position: pipeline.log.head(shopId) };
  let duplicates = 0;
  ingested.forEach(({ eventId, duplicate }, i) => {
    const index = validIndex[i]!;
    if (duplicate) duplicates++;
    results[index] = duplicate ? { index, success: true, eventId, duplicate: true } : { index, success: true, eventId };
  });
  const rejected = inputs.length - valid.length;
  return { success: rejected === 0, accepted: valid.length - duplicates, duplicates, rejected, results, position: pipeline.positionToken(position) };
}
