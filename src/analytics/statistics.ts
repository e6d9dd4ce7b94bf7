// The statistics API's answers, read from attribution's day cells only (a few per key and day, not
// the events): totals and groups over a day range with each rate's Wilson interval, and each
// experiment's variants compared with the first (A) on click-through rate.
import { CODED_STRATEGIES } from './rec-id.js';
import type { Attribution } from './attribution.js';
import { ADD_TO_CARTS, CLICKS, DAY_MS, FIELDS, IMPRESSIONS, keyExperiment, keyStrategy, keyVariant, keyWidget, ORDERS, REVENUE } from './day-cells.js';
import { newcombe, sampleSizePerGroup, wilson, type Interval } from './intervals.js';

export type GroupBy = 'strategy' | 'widget' | 'variant' | 'day';
export const GROUP_BYS: readonly GroupBy[] = ['strategy', 'widget', 'variant', 'day'];

export interface StatsRange {
  /** First and last UTC day, inclusive (days since the epoch). */
  fromDay: number;
  toDay: number;
}

export interface Metrics {
  impressions: number;
  clicks: number;
  addToCarts: number;
  orders: number;
  /** Attributed revenue, rounded to cents. */
  revenue: number;
  /** clicks / impressions. */
  ctr: Interval;
  /** attributed add-to-carts / clicks. */
  addToCartRate: Interval;
  /** attributed orders / clicks. */
  conversionRate: Interval;
}

export interface Comparison {
  variant: string;
  against: string;
  metric: 'ctr';
  /** The variant's rate minus the control's, with its 95 % interval (Newcombe). */
  difference: number | null;
  low: number | null;
  high: number | null;
  /** "B ahead", "A ahead" or "no difference yet". */
  verdict: string;
  /** Impressions each of the two needs for 80 % power at the rates seen so far; null when they are equal. */
  impressionsNeededPerVariant: number | null;
  /** How many more the one with fewer impressions needs (0 once there). */
  moreImpressionsNeeded: number | null;
}

export interface ExperimentResults {
  experiment: string;
  variants: (Metrics & { variant: string })[];
  comparisons: Comparison[];
}

export interface StatsAnswer {
  from: string;
  to: string;
  groupBy: GroupBy;
  totals: Metrics;
  groups: (Metrics & { key: string })[];
  /** With groupBy=variant: each experiment seen in the range. */
  experiments?: ExperimentResults[];
}

/** Experiment numbers name experiments `exp_<n>`; variant numbers are letters, 1 = A (the control). */
export function experimentId(experiment: number): string {
  return `exp_${experiment}`;
}

export function variantName(variant: number): string {
  return String.fromCharCode(64 + variant);
}

export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

type Counts = [number, number, number, number, number];

function metrics(c: Counts): Metrics {
  return {
    impressions: c[IMPRESSIONS],
    clicks: c[CLICKS],
    addToCarts: c[ADD_TO_CARTS],
    orders: c[ORDERS],
    revenue: Math.round(c[REVENUE] * 100) / 100,
    ctr: wilson(c[CLICKS], c[IMPRESSIONS]),
    addToCartRate: wilson(c[ADD_TO_CARTS], c[CLICKS]),
    conversionRate: wilson(c[ORDERS], c[CLICKS]),
  };
}

function groupName(groupBy: GroupBy, day: number, key: number, widgets: readonly string[]): string | undefined {
  switch (groupBy) {
    case 'strategy':
      return CODED_STRATEGIES[keyStrategy(key) - 1] ?? '(other)';
    case 'widget':
      return widgets[keyWidget(key)] ?? '(other)';
    case 'variant':
      return keyExperiment(key) === 0 ? undefined : `${experimentId(keyExperiment(key))}/${variantName(keyVariant(key))}`;
    case 'day':
      return dayString(day);
  }
}

/** Sums each group's cells in the range; `groups` keeps first-seen order (day: every day of the range). */
function sumCells(attribution: Attribution, range: StatsRange, name: (day: number, key: number) => string | undefined, groups: Map<string, Counts>): Counts {
  const total: Counts = [0, 0, 0, 0, 0];
  const rows = attribution.cells.rows;
  attribution.cells.forEach(range.fromDay, range.toDay, (day, key, row) => {
    const at = row * FIELDS;
    for (let f = 0; f < FIELDS; f++) total[f as 0]! += rows[at + f]!;
    const group = name(day, key);
    if (group === undefined) return;
    let counts = groups.get(group);
    if (counts === undefined) groups.set(group, (counts = [0, 0, 0, 0, 0]));
    for (let f = 0; f < FIELDS; f++) counts[f as 0]! += rows[at + f]!;
  });
  return total;
}

export function statistics(attribution: Attribution, range: StatsRange, groupBy: GroupBy): StatsAnswer {
  const groups = new Map<string, Counts>();
  if (groupBy === 'day') for (let d = range.fromDay; d <= range.toDay; d++) groups.set(dayString(d), [0, 0, 0, 0, 0]);
  const widgets = attribution.widgets;
  const total = sumCells(attribution, range, (day, key) => groupName(groupBy, day, key, widgets), groups);
  const entries = [...groups];
  if (groupBy !== 'day') entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const answer: StatsAnswer = {
    from: dayString(range.fromDay),
    to: dayString(range.toDay),
    groupBy,
    totals: metrics(total),
    groups: entries.map(([key, counts]) => ({ key, ...metrics(counts) })),
  };
  if (groupBy === 'variant') {
    const numbers = new Set<number>();
    attribution.cells.forEach(range.fromDay, range.toDay, (_day, key) => {
      if (keyExperiment(key) > 0) numbers.add(keyExperiment(key));
    });
    answer.experiments = [...numbers].sort((a, b) => a - b).map((n) => experimentResults(attribution, range, n, 0));
  }
  return answer;
}

/** One experiment's variants over the range (at least `variantCount` of them, zeros where unseen) and each compared with A. */
export function experimentResults(attribution: Attribution, range: StatsRange, experiment: number, variantCount: number): ExperimentResults {
  const byVariant = new Map<string, Counts>();
  let seen = variantCount;
  attribution.cells.forEach(range.fromDay, range.toDay, (_day, key) => {
    if (keyExperiment(key) === experiment) seen = Math.max(seen, keyVariant(key));
  });
  for (let v = 1; v <= seen; v++) byVariant.set(variantName(v), [0, 0, 0, 0, 0]);
  sumCells(attribution, range, (_day, key) => (keyExperiment(key) === experiment ? variantName(keyVariant(key)) : undefined), byVariant);
  const variants = [...byVariant].map(([variant, counts]) => ({ variant, ...metrics(counts) }));
  const control = variants[0];
  const comparisons = control === undefined ? [] : variants.slice(1).map((v) => compare(control, v));
  return { experiment: experimentId(experiment), variants, comparisons };
}

function compare(a: Metrics & { variant: string }, b: Metrics & { variant: string }): Comparison {
  const d = newcombe(a.clicks, a.impressions, b.clicks, b.impressions);
  let verdict = 'no difference yet';
  if (d.low !== null && d.low > 0) verdict = `${b.variant} ahead`;
  else if (d.high !== null && d.high < 0) verdict = `${a.variant} ahead`;
  const needed = a.ctr.rate === null || b.ctr.rate === null ? null : sampleSizePerGroup(Math.min(1, a.ctr.rate), Math.min(1, b.ctr.rate));
  return {
    variant: b.variant,
    against: a.variant,
    metric: 'ctr',
    ...d,
    verdict,
    impressionsNeededPerVariant: needed,
    moreImpressionsNeeded: needed === null ? null : Math.max(0, needed - Math.min(a.impressions, b.impressions)),
  };
}
