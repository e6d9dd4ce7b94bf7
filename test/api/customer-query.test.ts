import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_EVENTS_LIMIT, MAX_EVENTS_LIMIT, parseCustomerEventsQuery, parseCustomerId } from '../../src/api/customer-query.js';

describe('customer route inputs', () => {
  test('When any customerId of 1 to 128 characters is percent-encoded into the path, then it is read back as it was', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 128, unit: 'grapheme' }).filter((s) => s.length <= 128), (id) => {
      expect(parseCustomerId(encodeURIComponent(id))).toBe(id);
    }));
  });

  test('When the path segment is empty, too long or not valid percent-encoding, then it names no customer', () => {
    expect(parseCustomerId('')).toBeUndefined();
    expect(parseCustomerId('x'.repeat(129))).toBeUndefined();
    expect(parseCustomerId('%E0%A4%A')).toBeUndefined();
    expect(parseCustomerId('%')).toBeUndefined();
  });

  test('When the cursor and limit are in range, then they are taken; when absent, the first page of the default size', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: MAX_EVENTS_LIMIT }), fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (limit, after) => {
      expect(parseCustomerEventsQuery(`limit=${limit}&cursor=${after}`)).toEqual({ ok: true, query: { after, limit } });
    }));
    expect(parseCustomerEventsQuery('')).toEqual({ ok: true, query: { after: 0, limit: DEFAULT_EVENTS_LIMIT } });
  });

  test('When any query string is given, then the parse never throws, and what it takes is in range', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (cursor, limit) => {
      const parsed = parseCustomerEventsQuery(new URLSearchParams({ cursor, limit }).toString());
      if (parsed.ok) {
        expect(Number.isSafeInteger(parsed.query.after) && parsed.query.after >= 0).toBe(true);
        expect(parsed.query.limit >= 1 && parsed.query.limit <= MAX_EVENTS_LIMIT).toBe(true);
      } else {
        expect(['invalid_cursor', 'invalid_limit']).toContain(parsed.error.code);
      }
    }));
  });

  test('When the limit or cursor is out of range or not a number, then the error names which', () => {
    for (const [query, code] of [['limit=0', 'invalid_limit'], ['limit=1001', 'invalid_limit'], ['limit=-1', 'invalid_limit'], ['cursor=0', 'invalid_cursor'], ['cursor=01', 'invalid_cursor'], ['cursor=9007199254740993', 'invalid_cursor'], ['cursor=1e3', 'invalid_cursor']] as const) {
      const parsed = parseCustomerEventsQuery(query);
      expect(parsed.ok ? undefined : parsed.error.code, query).toBe(code);
    }
  });
});
