// GET /api/stats query string → a day range and a grouping, or the error to answer with.
// from/to are UTC calendar days (YYYY-MM-DD), inclusive, at most MAX_STATS_DAYS apart; without
// them the range is the 30 days ending today.
import { DAY_MS, MAX_DAYS } from '../engine/attribution/day-cells.js';
import { GROUP_BYS, type GroupBy, type StatsRange } from '../analytics/statistics.js';
import { AppError } from '../errors.js';

export const MAX_STATS_DAYS = MAX_DAYS;
export const DEFAULT_STATS_DAYS = 30;

export interface StatsQuery extends StatsRange {
  groupBy: GroupBy;
}

export type StatsQueryParse = { ok: true; query: StatsQuery } | { ok: false; error: AppError };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days since the epoch of a real calendar date from 2000 to 2199; undefined otherwise. */
export function parseDay(raw: string): number | undefined {
  const m = DATE.exec(raw);
  if (m === null) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 2000 || year > 2199) return undefined;
  const ms = Date.UTC(year, month - 1, day);
  const date = new Date(ms);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

function fail(pointer: string, detail: string): StatsQueryParse {
  return { ok: false, error: new AppError('invalid_query', detail, [{ pointer, detail }]) };
}

/** Never throws: every bad input becomes invalid_query with the parameter's pointer. */
export function parseStatsQuery(raw: string, now: number): StatsQueryParse {
  const params = new URLSearchParams(raw);
  const groupBy = params.get('groupBy') ?? 'strategy';
  if (!(GROUP_BYS as readonly string[]).includes(groupBy)) return fail('/groupBy', `groupBy must be one of ${GROUP_BYS.join(', ')}`);
  const fromRaw = params.get('from');
  const toRaw = params.get('to');
  const toDay = toRaw === null ? Math.floor(now / DAY_MS) : parseDay(toRaw);
  if (toDay === undefined) return fail('/to', 'to must be a date YYYY-MM-DD from 2000 to 2199');
  const fromDay = fromRaw === null ? toDay - (DEFAULT_STATS_DAYS - 1) : parseDay(fromRaw);
  if (fromDay === undefined) return fail('/from', 'from must be a date YYYY-MM-DD from 2000 to 2199');
  if (fromDay > toDay) return fail('/from', 'from must not be after to');
  if (toDay - fromDay + 1 > MAX_STATS_DAYS) return fail('/from', `the range holds at most ${MAX_STATS_DAYS} days`);
  return { ok: true, query: { fromDay, toDay, groupBy: groupBy as GroupBy } };
}
