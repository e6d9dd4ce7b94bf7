// The customer routes' inputs: the {id} path parameter as a customerId, and GET's page of events
// (cursor, limit). The cursor is the log position of the page's last event, as a decimal string:
// positions only grow, so a cursor stays valid while the customer's events come and go.
import { AppError } from '../errors.js';

export const DEFAULT_EVENTS_LIMIT = 500;
export const MAX_EVENTS_LIMIT = 1_000;
/** As an event's customerId (api/event.ts). */
const MAX_CUSTOMER_ID_LENGTH = 128;

export interface CustomerEventsQuery {
  /** The page starts after this log position (0: at the first event). */
  after: number;
  limit: number;
}

export type CustomerEventsParse = { ok: true; query: CustomerEventsQuery } | { ok: false; error: AppError };

/** The customerId a percent-encoded path segment names; undefined when it cannot be one (malformed, empty, too long). */
export function parseCustomerId(raw: string): string | undefined {
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  return id.length >= 1 && id.length <= MAX_CUSTOMER_ID_LENGTH ? id : undefined;
}

function fail(code: 'invalid_cursor' | 'invalid_limit', detail: string, pointer: string): CustomerEventsParse {
  return { ok: false, error: new AppError(code, detail, [{ pointer, detail }]) };
}

/** Never throws: the raw query string (no leading '?'); the first value of each parameter counts, an empty one is absent. */
export function parseCustomerEventsQuery(raw: string): CustomerEventsParse {
  const params = new URLSearchParams(raw);
  const limitRaw = params.get('limit') ?? '';
  let limit = DEFAULT_EVENTS_LIMIT;
  if (limitRaw !== '') {
    limit = /^\d{1,4}$/.test(limitRaw) ? Number(limitRaw) : 0;
    if (limit < 1 || limit > MAX_EVENTS_LIMIT) return fail('invalid_limit', `limit must be an integer from 1 to ${MAX_EVENTS_LIMIT}`, '/limit');
  }
  const cursorRaw = params.get('cursor') ?? '';
  if (cursorRaw === '') return { ok: true, query: { after: 0, limit } };
  const after = /^[1-9]\d{0,15}$/.test(cursorRaw) ? Number(cursorRaw) : NaN;
  if (!Number.isSafeInteger(after)) return fail('invalid_cursor', 'cursor must be a nextCursor from an earlier page of GET /api/customers/{id}', '/cursor');
  return { ok: true, query: { after, limit } };
}
