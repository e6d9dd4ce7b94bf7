// The GET /api/stats query parser: never throws, accepts exactly the real dates in range and the
// known groupings, and defaults to the 30 days ending today.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DEFAULT_STATS_DAYS, MAX_STATS_DAYS, parseDay, parseStatsQuery } from '../../src/api/stats-query.js';
import { GROUP_BYS } from '../../src/analytics/statistics.js';

const DAY = 86_400_000;
const NOW = Date.parse('2025-06-15T13:00:00Z');
const TODAY = Math.floor(NOW / DAY);

const dayArb = fc.integer({ min: Date.UTC(2000, 0, 1) / DAY, max: Date.UTC(2199, 11, 31) / DAY });
const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

describe('stats query', () => {
  test('When any query string is parsed, then it never throws and an answer is either a valid range or invalid_query', () => {
    const param = fc.oneof(fc.string(), dayArb.map(iso), fc.constantFrom(...GROUP_BYS));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('from', 'to', 'groupBy', 'x'), param), (params) => {
        const outcome = parseStatsQuery(new URLSearchParams(params).toString(), NOW);
        if (!outcome.ok) {
          expect(outcome.error.code).toBe('invalid_query');
          return;
        }
        const { fromDay, toDay, groupBy } = outcome.query;
        expect(GROUP_BYS).toContain(groupBy);
        expect(fromDay).toBeLessThanOrEqual(toDay);
        expect(toDay - fromDay).toBeLessThan(MAX_STATS_DAYS);
        if (params.from !== undefined) expect(iso(fromDay)).toBe(params.from);
        if (params.to !== undefined) expect(iso(toDay)).toBe(params.to);
      }),
      { numRuns: 2000 },
    );
  });

  test('When two real dates in order are given, then they are the range exactly when it spans at most the bound', () => {
    fc.assert(
      fc.property(dayArb, fc.nat(2 * MAX_STATS_DAYS), (from, span) => {
        const outcome = parseStatsQuery(`from=${iso(from)}&to=${iso(from + span)}`, NOW);
        if (from + span > Date.UTC(2199, 11, 31) / DAY) return;
        expect(outcome.ok).toBe(span < MAX_STATS_DAYS);
        if (outcome.ok) expect(outcome.query).toEqual({ fromDay: from, toDay: from + span, groupBy: 'strategy' });
      }),
    );
  });

  test('When a date string is parsed, then only real calendar dates are days', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1990, max: 2210 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), (y, m, d) => {
        const raw = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const real = y >= 2000 && y <= 2199 && m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
        expect(parseDay(raw)).toBe(real ? Date.UTC(y, m - 1, d) / DAY : undefined);
      }),
    );
  });

  test('When no range is given, then it is the 30 days ending today', () => {
    expect(parseStatsQuery('', NOW)).toEqual({ ok: true, query: { fromDay: TODAY - DEFAULT_STATS_DAYS + 1, toDay: TODAY, groupBy: 'strategy' } });
  });
});
