// The WebSocket protocol of GET /api/stream (docs/api.md): the client's messages, their typia
// validator, and the server's messages. A decoded frame becomes a ClientMessage or an AppError.
import typia, { type tags } from 'typia';
import type { RecommendationResponse } from '../api/responses.js';
import type { BatchResponse } from '../app/track-events.js';
import { AppError, type ErrorCode, type FieldError } from '../errors.js';
import { typiaPathToPointer } from '../api/json-pointer.js';
import { MAX_BATCH_EVENTS } from '../api/event.js';

/** The client's correlation id, echoed on every reply to that message. */
export type Ref = (string & tags.MaxLength<128>) | number;

/** A GET /api/recommendations query as an object; values become query-string parameters. */
export type QueryValue = string | number | boolean | null | (string | number)[];

export interface EventMessage {
  op: 'event';
  ref?: Ref;
  /** Judged by the same validator as POST /api/events. */
  event: unknown;
}

export interface EventsMessage {
  op: 'events';
  ref?: Ref;
  /** Checked like the `events` of a POST /api/events/batch body, then each event alone. */
  events: unknown;
}

export interface SubscribeMessage {
  op: 'subscribe';
  ref?: Ref;
  query: Record<string, QueryValue>;
}

export interface UnsubscribeMessage {
  op: 'unsubscribe';
  ref?: Ref;
  sub: string & tags.MaxLength<64>;
}

export interface PingMessage {
  op: 'ping';
  ref?: Ref;
}

export type ClientMessage = EventMessage | EventsMessage | SubscribeMessage | UnsubscribeMessage | PingMessage;

export type Op = ClientMessage['op'];

const OPS: readonly Op[] = ['event', 'events', 'subscribe', 'unsubscribe', 'ping'];

const isClientMessage = typia.createIs<ClientMessage>();
const validateClientMessage = typia.createValidate<ClientMessage>();

export interface ErrorBody {
  code: ErrorCode;
  detail: string;
  errors?: readonly FieldError[];
  /** rate_limited by a rate limit: ms until the operation would be taken. */
  retryAfterMs?: number;
}

/** The answer to an events op: a POST /api/events/batch body beside op and ref. */
export interface AcksMessage extends BatchResponse {
  op: 'acks';
  ref?: Ref;
}

export type ServerMessage =
  | { op: 'ack'; ref?: Ref; eventId: string; duplicate?: true; position: string }
  | AcksMessage
  | { op: 'error'; ref?: Ref; error: ErrorBody }
  /** A live subscription ended by the server (its customer token expired): `sub` names it. */
  | { op: 'error'; sub: string; error: ErrorBody }
  | { op: 'pong'; ref?: Ref };

/** A subscription's list: the GET /api/recommendations body beside op and sub (recommendation-frame.ts writes it as text). */
export interface RecommendationsMessage extends RecommendationResponse {
  op: 'recommendations';
  /** Only on the answer to a subscribe. */
  ref?: Ref;
  sub: string;
}

/** The ref of a message that failed validation, when it has a usable one (to address the error). */
export function refOf(input: unknown): Ref | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const ref = (input as { ref?: unknown }).ref;
  if (typeof ref === 'number' && Number.isFinite(ref)) return ref;
  if (typeof ref === 'string' && ref.length <= 128) return ref;
  return undefined;
}

/**
 * The rate-limit tokens a decoded frame costs: its events for an `events` op (at most a batch's
 * largest, MAX_BATCH_EVENTS: more is refused anyway), one for anything else.
 */
export function costOf(input: unknown): number {
  if (typeof input !== 'object' || input === null || (input as { op?: unknown }).op !== 'events') return 1;
  const events = (input as { events?: unknown }).events;
  return Array.isArray(events) ? Math.min(MAX_BATCH_EVENTS, Math.max(1, events.length)) : 1;
}

/** Checks a decoded frame; `is` first, errors built only on failure (`validate`, which builds them, costs several times as much). */
export function parseClientMessage(input: unknown): ClientMessage | AppError {
  if (isClientMessage(input)) return input;
  const op = typeof input === 'object' && input !== null ? (input as { op?: unknown }).op : undefined;
  if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op)) {
    return new AppError('invalid_message', `a message is an object whose op is one of ${OPS.join(', ')}`, [{ pointer: '/op', detail: `must be one of ${OPS.join(', ')}` }]);
  }
  const result = validateClientMessage(input);
  const errors = result.success ? [] : result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path), detail: `must be ${e.expected.replace(/ & [A-Za-z]+<[^>]*>/g, '')}` }));
  const first = errors[0];
  return new AppError('invalid_message', first ? `${first.pointer} ${first.detail}` : `invalid ${op} message`, errors);
}

export function errorMessage(ref: Ref | undefined, error: AppError, retryAfterMs?: number): ServerMessage {
  const body: ErrorBody = { code: error.code, detail: error.detail };
  if (error.errors && error.errors.length > 0) body.errors = error.errors;
  if (retryAfterMs !== undefined) body.retryAfterMs = retryAfterMs;
  return ref === undefined ? { op: 'error', error: body } : { op: 'error', ref, error: body };
}
