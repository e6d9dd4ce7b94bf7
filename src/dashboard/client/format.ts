// How numbers read on the dashboard: counts with separators, money in the shop's currency (when it
// named one: PUT /api/shop/currency), rates as percentages with their 95 % interval.
import type { Interval } from './types';

const counts = new Intl.NumberFormat('en');
const plainMoney = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
let money = plainMoney;
let currency: string | undefined;

/** Shows money in `code` (ISO 4217) from now on; undefined: plain numbers with two decimals. */
export function useCurrency(code: string | undefined): void {
  currency = code;
  money = code === undefined ? plainMoney : new Intl.NumberFormat('en', { style: 'currency', currency: code });
}

/** The shop's currency, when it named one. */
export function shopCurrency(): string | undefined {
  return currency;
}

export const count = (n: number): string => counts.format(n);
export const amount = (n: number): string => money.format(n);

/** 0.0423 → "4.23 %"; "–" for no rate. */
export function percent(rate: number | null, digits = 2): string {
  return rate === null ? '–' : `${(rate * 100).toFixed(digits)} %`;
}

/** "4.23 % (3.90–4.58)": the rate with its Wilson interval. */
export function withInterval(interval: Interval): string {
  if (interval.rate === null) return '–';
  return `${percent(interval.rate)} (${percent(interval.low).replace(' %', '')}–${percent(interval.high)})`;
}

/** A difference in percentage points with its interval: "+0.42 pp (−0.10 to +0.95)". */
export function points(value: number | null, low: number | null, high: number | null): string {
  if (value === null) return '–';
  const pp = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(2)}`;
  return low === null || high === null ? `${pp(value)} pp` : `${pp(value)} pp (${pp(low)} to ${pp(high)})`;
}

/** Days since the epoch of a UTC day YYYY-MM-DD. */
export function dayNumber(day: string): number {
  return Date.parse(day + 'T00:00:00Z') / 86_400_000;
}

export function dayString(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
