// The event wire type (spec "Event (request)" + our extensions), its typia validator and normalization.
import { Packr } from 'msgpackr';
import typia, { type tags } from 'typia';
import type { EventType } from '../engine/event.js';
import { AppError, type FieldError } from '../errors.js';
import { ISO_8601_WITH_ZONE } from './date-time.js';
import { typiaPathToPointer } from './json-pointer.js';
import { normalizeProductId } from './product-id.js';
import type { WireEvent } from './wire-event.js';

export type { WireEvent };

export const EVENT_TYPES: readonly EventType[] = ['impression', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'view'];

/** An accepted event, normalized: bare product id, epoch-ms timestamp, no nulls. */
export interface TrackedEvent {
  type: EventType;
  productId: string;
  sessionId: string;
  customerId?: string;
  widgetId?: string;
  recId?: string;
  metadata?: Record<string, unknown>;
  messageId?: string;
  timestamp: number;
  /** Set by the pipeline, never from the body: 'secret' when a secret key sent it (see engine/event.ts). */
  sender?: 'secret';
}

export interface EventError extends FieldError {
  code: 'invalid_event';
}

/** An accepted event, and the customer token it carried (checked by the caller, not stored). */
export type EventParse = { ok: true; event: TrackedEvent; customerToken?: string } | { ok: false; errors: EventError[] };

/**
 * Bytes metadata may take, both as JSON (what the client sends) and as MessagePack (what the log
 * stores: a number with a fraction takes 9 bytes there, against 2 or 3 in JSON, so a JSON bound
 * alone let 1 KiB of JSON store 2.25 KiB). Real payloads (orderId ≤ 128 characters, price,
 * quantity, position, strategy) take under 300 bytes, the widget's about 40; anyone with the
 * public key can send metadata, and each event's stays in the log for the retention period.
 */
export const MAX_METADATA_BYTES = 1024;
/**
 * Levels of objects and arrays in metadata, metadata itself counting as one. Real payloads are flat
 * (orderId, position, strategy); the cap keeps deep values (a 4 KiB body holds ~2,000 levels of
 * arrays) away from the recursive encoders behind an event — JSON, msgpack, LMDB — which overflow
 * the stack on them and fail the whole commit.
 */
export const MAX_METADATA_DEPTH = 8;
/** Oldest accepted timestamp (2000-01-01) and the clock skew tolerated into the future. */
const MIN_TIMESTAMP = 946_684_800_000;
const MAX_FUTURE_SKEW_MS = 10 * 60_000;

/** Plain MessagePack: the log writes metadata so, inline (its keys are never shared structures: see store/database.ts). */
const storedForm = new Packr({ useRecords: false, variableMapSize: true });

/** Bytes `metadata` takes as the log stores it. */
export function storedMetadataBytes(metadata: Record<string, unknown>): number {
  return storedForm.pack(metadata).length;
}

const isWireEvent = typia.createIs<WireEvent>();
const validateWireEvent = typia.createValidate<WireEvent>();

function describe(expected: string, value: unknown): string {
  if (value === undefined) return 'is required';
  if (expected.includes('"impression"')) return `must be one of ${EVENT_TYPES.join(', ')}`;
  const tag = /MaxLength<(\d+)>/.exec(expected);
  if (tag && typeof value === 'string') return `must be at most ${tag[1]} characters`;
  if (/MinLength<1>/.test(expected) && value === '') return 'must not be empty';
  if (expected.startsWith('Record<')) return 'must be an object';
  return `must be ${expected.replace(/ & [A-Za-z]+<[^>]*>/g, '').replace(/"/g, "'")}`;
}

/**
 * True when `value` nests objects or arrays more than `levels` deep (the value itself is one level).
 * The recursion stops at the limit, so the stack stays shallow however deep the input goes.
 */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const key in value) {
    if (nestsDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  }
  return false;
}

function invalid(pointer: string, detail: string): EventError {
  return { code: 'invalid_event', pointer, detail };
}

function parseTimestamp(raw: string | number, now: number): number | string {
  let ms: number;
  if (typeof raw === 'number') ms = raw;
  else if (ISO_8601_WITH_ZONE.test(raw)) ms = Date.parse(raw);
  else return 'must be an ISO 8601 date-time with a time zone or epoch milliseconds';
  if (!Number.isFinite(ms) || ms < MIN_TIMESTAMP) return 'must be a date after 2000-01-01';
  if (ms > now + MAX_FUTURE_SKEW_MS) return 'must not be in the future';
  return Math.floor(ms);
}

/**
 * Validates one event and normalizes it; `pointer` prefixes every error's JSON pointer
 * (e.g. "/events/3" inside a batch). Never throws.
 */
export function parseEvent(input: unknown, now: number, pointer = ''): EventParse {
  if (!isWireEvent(input)) {
    const result = validateWireEvent(input);
    if (result.success) return parseEvent(result.data, now, pointer); // unreachable: is/validate agree
    return {
      ok: false,
      errors: result.errors.map((e) => invalid(typiaPathToPointer(e.path, pointer), describe(e.expected, e.value))),
    };
  }
  const errors: EventError[] = [];
  const productId = normalizeProductId(input.productId);
  if (productId === undefined) {
    errors.push(invalid(`${pointer}/productId`, 'must be a product id such as 123 or gid://shopify/Product/123'));
  }
  const metadata = input.metadata ?? undefined;
  if (metadata !== undefined) {
    if (Array.isArray(metadata)) errors.push(invalid(`${pointer}/metadata`, 'must be an object'));
    // Depth first: JSON.stringify below is one of the encoders a deep value would overflow.
    else if (nestsDeeperThan(metadata, MAX_METADATA_DEPTH)) {
      errors.push(invalid(`${pointer}/metadata`, `must nest at most ${MAX_METADATA_DEPTH} levels of objects and arrays`));
    } else if (Buffer.byteLength(JSON.stringify(metadata)) > MAX_METADATA_BYTES) {
      errors.push(invalid(`${pointer}/metadata`, `must serialize to at most ${MAX_METADATA_BYTES} bytes of JSON`));
    } else if (storedMetadataBytes(metadata) > MAX_METADATA_BYTES) {
      errors.push(invalid(`${pointer}/metadata`, `must take at most ${MAX_METADATA_BYTES} bytes as stored (MessagePack: 9 bytes per number with a fraction)`));
    }
  }
  let timestamp = now;
  if (input.timestamp !== undefined && input.timestamp !== null) {
    const parsed = parseTimestamp(input.timestamp, now);
    if (typeof parsed === 'string') errors.push(invalid(`${pointer}/timestamp`, parsed));
    else timestamp = parsed;
  }
  if (errors.length > 0) return { ok: false, errors };
  const event: TrackedEvent = { type: input.type, productId: productId!, sessionId: input.sessionId, timestamp };
  if (input.customerId) event.customerId = input.customerId;
  if (input.widgetId) event.widgetId = input.widgetId;
  if (input.recId) event.recId = input.recId;
  if (metadata !== undefined) event.metadata = metadata;
  if (input.messageId) event.messageId = input.messageId;
  return input.customerToken ? { ok: true, event, customerToken: input.customerToken } : { ok: true, event };
}

export const MAX_BATCH_EVENTS = 100;

/**
 * POST /api/events/batch, as documented: parseBatchEnvelope checks the envelope (all or nothing),
 * then each event is judged alone by parseEvent, so one bad event does not refuse the rest.
 */
export interface WireBatch {
  events: WireEvent[] & tags.MinItems<1> & tags.MaxItems<100>;
}

export type BatchShape = { ok: true; events: unknown[] } | { ok: false; code: 'invalid_batch' | 'batch_too_large'; detail: string };

/** Checks the envelope of a batch; each event inside is judged alone by parseEvent. */
export function parseBatchEnvelope(input: unknown): BatchShape {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, code: 'invalid_batch', detail: 'body must be an object {"events": [...]}' };
  }
  const events = (input as { events?: unknown }).events;
  if (!Array.isArray(events)) return { ok: false, code: 'invalid_batch', detail: 'events must be an array' };
  if (events.length === 0) return { ok: false, code: 'invalid_batch', detail: 'events must hold at least one event' };
  if (events.length > MAX_BATCH_EVENTS) {
    return { ok: false, code: 'batch_too_large', detail: `a batch holds at most ${MAX_BATCH_EVENTS} events, got ${events.length}` };
  }
  return { ok: true, events };
}

/** The events of a batch, its envelope checked (the route's body, the stream's `events` op); throws invalid_batch or batch_too_large. */
export function batchEvents(input: unknown): readonly unknown[] {
  const envelope = parseBatchEnvelope(input);
  if (!envelope.ok) throw new AppError(envelope.code, envelope.detail, [{ pointer: '/events', detail: envelope.detail }]);
  return envelope.events;
}
