// GET /api/products query string (cursor, limit) → where the page starts and how long it is, or the
// error to answer with; and the opaque cursor that names a position in the catalog's order.
import { AppError } from '../errors.js';
import { isBareId } from './product-id.js';

export const DEFAULT_PAGE_LIMIT = 50;
export const MAX_PAGE_LIMIT = 250;

export interface CatalogPageQuery {
  /** The page starts after this product id (in product-id order); undefined: at the start. */
  after: string | undefined;
  limit: number;
}

export type CatalogPageParse = { ok: true; query: CatalogPageQuery } | { ok: false; error: AppError };

/**
 * A cursor is the last product id of the page before, versioned ("1:") and base64url-encoded: opaque
 * to callers, stable across restarts (it names an id, not a position that shifts as products come
 * and go), and still valid when that product has been deleted since.
 */
const CURSOR_VERSION = '1:';
const CURSOR = /^[A-Za-z0-9_-]{1,120}$/;

export function encodeCursor(productId: string): string {
  return Buffer.from(CURSOR_VERSION + productId, 'utf8').toString('base64url');
}

/** The product id a cursor names; undefined when the text is not a cursor this service made. */
export function decodeCursor(cursor: string): string | undefined {
  if (!CURSOR.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, 'base64url');
  // Only the canonical encoding: trailing bits or padding variants would make two texts one cursor.
  if (bytes.toString('base64url') !== cursor) return undefined;
  const text = bytes.toString('utf8');
  if (!text.startsWith(CURSOR_VERSION)) return undefined;
  const id = text.slice(CURSOR_VERSION.length);
  return isBareId(id) ? id : undefined;
}

function fail(code: 'invalid_cursor' | 'invalid_limit', detail: string, pointer: string): CatalogPageParse {
  return { ok: false, error: new AppError(code, detail, [{ pointer, detail }]) };
}

/** Never throws: the raw query string as uWS gives it (no leading '?'); the first value of each parameter counts, an empty one is absent. */
export function parseCatalogPageQuery(raw: string): CatalogPageParse {
  const params = new URLSearchParams(raw);
  const limitRaw = params.get('limit') ?? '';
  let limit = DEFAULT_PAGE_LIMIT;
  if (limitRaw !== '') {
    limit = /^\d{1,3}$/.test(limitRaw) ? Number(limitRaw) : 0;
    if (limit < 1 || limit > MAX_PAGE_LIMIT) return fail('invalid_limit', `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`, '/limit');
  }
  const cursorRaw = params.get('cursor') ?? '';
  if (cursorRaw === '') return { ok: true, query: { after: undefined, limit } };
  const after = decodeCursor(cursorRaw);
  if (after === undefined) return fail('invalid_cursor', 'cursor must be a nextCursor from an earlier page of GET /api/products', '/cursor');
  return { ok: true, query: { after, limit } };
}
