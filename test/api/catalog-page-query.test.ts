// GET /api/products query parsing: cursor and limit, checked as properties over arbitrary input.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_PAGE_LIMIT, decodeCursor, encodeCursor, MAX_PAGE_LIMIT, parseCatalogPageQuery } from '../../src/api/catalog-page-query.js';
import { AppError } from '../../src/errors.js';

const BARE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const bareId = fc.stringMatching(BARE);

/** Query strings of the two parameters (and others), with values that are often valid. */
const queryArb = (() => {
  const name = fc.constantFrom('cursor', 'limit', 'other');
  const value = fc.oneof(
    fc.constantFrom('', '0', '1', '50', '250', '251', '-1', '1.5', '007', '1e2', ' 5', '0x10', 'MQ', 'MTox', 'MToxMjM', 'MToxMjM=', 'Mjox'),
    fc.integer({ min: -5, max: 1000 }).map(String),
    bareId.map(encodeCursor),
    fc.string({ maxLength: 20 }),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 5 }).map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
})();

const rawArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.array(fc.constantFrom('%', '%zz', '%E0%A4%A', '&', '=', '+', 'limit', 'cursor', '\uD800', '#', '?', 'MTox'), { maxLength: 30 }).map((parts) => parts.join('')),
  queryArb,
);

/** The oracle: what the first value of each parameter should give, written independently of the parser. */
function expected(raw: string): { code: string } | { after: string | undefined; limit: number } {
  const params = new URLSearchParams(raw);
  const limitRaw = params.get('limit') ?? '';
  const limit = limitRaw === '' ? DEFAULT_PAGE_LIMIT : /^[0-9]+$/.test(limitRaw) && limitRaw.length <= 3 ? Number(limitRaw) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_LIMIT)) return { code: 'invalid_limit' };
  const cursor = params.get('cursor') ?? '';
  if (cursor === '') return { after: undefined, limit };
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const canonical = /^[A-Za-z0-9_-]+$/.test(cursor) && Buffer.from(cursor, 'base64url').toString('base64url') === cursor;
  if (!canonical || !text.startsWith('1:') || !BARE.test(text.slice(2))) return { code: 'invalid_cursor' };
  return { after: text.slice(2), limit };
}

describe('parseCatalogPageQuery', () => {
  test('When given any string, then it never throws and answers what the oracle says: a page query, or invalid_limit / invalid_cursor with a pointer', () => {
    fc.assert(
      fc.property(rawArb, (raw) => {
        const parsed = parseCatalogPageQuery(raw);
        const want = expected(raw);
        if ('code' in want) {
          expect(parsed.ok).toBe(false);
          if (parsed.ok) return;
          expect(parsed.error).toBeInstanceOf(AppError);
          expect(parsed.error.code).toBe(want.code);
          expect(parsed.error.status).toBe(400);
          expect(parsed.error.errors?.[0]?.pointer).toBe(want.code === 'invalid_limit' ? '/limit' : '/cursor');
        } else {
          expect(parsed).toEqual({ ok: true, query: want });
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('When a cursor is made from any product id, then it is URL-safe and decodes back to that id', () => {
    fc.assert(
      fc.property(bareId, (id) => {
        const cursor = encodeCursor(id);
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(cursor)).toBe(id);
        expect(parseCatalogPageQuery(`cursor=${cursor}&limit=7`)).toEqual({ ok: true, query: { after: id, limit: 7 } });
      }),
    );
  });

  test('When a valid cursor is changed in one character, then it is refused or names another id (never the same one twice)', () => {
    fc.assert(
      fc.property(bareId, fc.nat(), fc.constantFrom(...'ABCabc019-_'), (id, at, char) => {
        const cursor = encodeCursor(id);
        const i = at % cursor.length;
        if (cursor[i] === char) return;
        const changed = cursor.slice(0, i) + char + cursor.slice(i + 1);
        expect(decodeCursor(changed)).not.toBe(id);
      }),
    );
  });

  test('When limit is absent, then the default applies; 1 and 250 are the bounds', () => {
    expect(parseCatalogPageQuery('')).toEqual({ ok: true, query: { after: undefined, limit: DEFAULT_PAGE_LIMIT } });
    expect(parseCatalogPageQuery('limit=1')).toMatchObject({ ok: true, query: { limit: 1 } });
    expect(parseCatalogPageQuery('limit=250')).toMatchObject({ ok: true, query: { limit: 250 } });
    for (const bad of ['0', '251', '-1', '2.5', 'ten', '1000']) expect(parseCatalogPageQuery(`limit=${bad}`)).toMatchObject({ ok: false, error: { code: 'invalid_limit' } });
  });
});
