// The statistics API's answers, read from attribution's day cells only (a few per key and day, not
// the events): totals and groups over a day range with each rate's Wilson interval, and each
// experiment's variants compared with the first (A) on click-through rate; and the top recommended
// products from the per-product cells.
import { CODED_STRATEGIES } from '../engine/attribution/rec-id.js';
import type { AttributionResults } from '../engine/shop-face.js';
import { ADD_TO_CARTS, CARTED_CLICKS, CLICKS, CONVERTED_CLICKS, DAY_MS, FIELDS, IMPRESSIONS, keyExperiment, keyStrategy, keyVariant, keyWidget, ORDERS, REVENUE, STOREFRONT_REVENUE } from '../engine/attribution/day-cells.js';
import type { WidgetNames } from '../engine/attribution/widget-names.js';
import type { Comparison, ExperimentResults, GroupBy, Metrics, StatsAnswer, StatsGroup } from '../api/stats-answer.js';
import { newcombe, sampleSizePerGroup, wilson, type Interval } from './intervals.js';

export type { Comparison, ExperimentResults, GroupBy, Metrics, StatsAnswer, StatsGroup };

export const GROUP_BYS: readonly GroupBy[] = ['strategy', 'widget', 'variant', 'day', 'product'];
/**
 * groupBy=product answers the top products only: by revenue, then clicks. Per product, impressions
 * are not counted (0, and CTR null): only clicks and what they earned.
 */
export const MAX_PRODUCT_GROUPS = 100;

export interface StatsRange {
  /** First and last UTC day, inclusive (days since the epoch). */
  fromDay: number;
  toDay: number;
}

/** A product's title for groupBy=product (the catalog's); undefined when unknown. */
export type TitleOf = (productId: string) => string | undefined;

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

type Counts = [number, number, number, number, number, number, number, number];

const zeros = (): Counts => [0, 0, 0, 0, 0, 0, 0, 0];

function metrics(c: Counts): Metrics {
  return {
    impressions: c[IMPRESSIONS],
    clicks: c[CLICKS],
    addToCarts: c[ADD_TO_CARTS],
    orders: c[ORDERS],
    revenue: Math.round(c[REVENUE] * 100) / 100,
    storefrontRevenue: Math.round(c[STOREFRONT_REVENUE] * 100) / 100,
    cartedClicks: c[CARTED_CLICKS],
    convertedClicks: c[CONVERTED_CLICKS],
    ctr: wilson(c[CLICKS], c[IMPRESSIONS]),
    addToCartRate: wilson(c[CARTED_CLICKS], c[CLICKS]),
    conversionRate: wilson(c[CONVERTED_CLICKS], c[CLICKS]),
  };
}

/**
 * Widget groups by name: an index names one widget for good or, for the storefront's, one per day
 * (widget-names.ts), so the same name on two days is one group.
 */
class WidgetGroups {
  readonly names: string[] = [];
  readonly #numberOf = new Map<string, number>();

  constructor(readonly widgets: WidgetNames) {}

  numberOf(day: number, index: number): number {
    const name = this.widgets.nameOf(day, index);
    let number = this.#numberOf.get(name);
    if (number === undefined) {
      this.#numberOf.set(name, (number = this.names.length));
      this.names.push(name);
    }
    return number;
  }
}

/** A group's number for a cell: strategy, widget (by name), experiment × 16 + variant (-1: none), or day. */
function groupOf(groupBy: GroupBy, day: number, key: number, widgets: WidgetGroups): number {
  switch (groupBy) {
    case 'strategy':
      return keyStrategy(key);
    case 'widget':
      return widgets.numberOf(day, keyWidget(key));
    case 'variant':
      return keyExperiment(key) === 0 ? -1 : keyExperiment(key) * 16 + keyVariant(key);
    case 'day':
    case 'product':
      return day;
  }
}

function groupName(groupBy: GroupBy, group: number, widgets: WidgetGroups): string {
  switch (groupBy) {
    case 'strategy':
      return CODED_STRATEGIES[group - 1] ?? '(other)';
    case 'widget':
      return widgets.names[group]!;
    case 'variant':
      return `${experimentId(Math.floor(group / 16))}/${variantName(group % 16)}`;
    case 'day':
    case 'product':
      return dayString(group);
  }
}

/**
 * Sums the range's cells into `groups` by number (numbers, not names, per cell: a 400-day range of
 * a busy shop is ~200k cells) and returns the total of all of them.
 */
function sumCells(attribution: AttributionResults, range: StatsRange, groupBy: GroupBy, groups: Map<number, Counts>, widgets = new WidgetGroups(attribution.widgets), cells = attribution.cells): Counts {
  const total: Counts = zeros();
  const rows = cells.rows;
  cells.forEach(range.fromDay, range.toDay, (day, key, row) => {
    const at = row * FIELDS;
    for (let f = 0; f < FIELDS; f++) total[f as 0]! += rows[at + f]!;
    const group = groupOf(groupBy, day, key, widgets);
    if (group < 0) return;
    let counts = groups.get(group);
    if (counts === undefined) groups.set(group, (counts = zeros()));
    for (let f = 0; f < FIELDS; f++) counts[f as 0]! += rows[at + f]!;
  });
  return total;
}

export function statistics(attribution: AttributionResults, range: StatsRange, groupBy: GroupBy, titleOf?: TitleOf): StatsAnswer {
  if (groupBy === 'product') return topProducts(attribution, range, titleOf);
  const groups = new Map<number, Counts>();
  if (groupBy === 'day') for (let d = range.fromDay; d <= range.toDay; d++) groups.set(d, zeros());
  const widgets = new WidgetGroups(attribution.widgets);
  const total = sumCells(attribution, range, groupBy, groups, widgets);
  const named = [...groups].map(([group, counts]) => [groupName(groupBy, group, widgets), counts, group] as const);
  if (groupBy !== 'day') named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Per widget, whether the merchant registered its name: the others are names a storefront sent.
  const registered = groupBy === 'widget' ? (key: string) => ({ registered: attribution.widgets.isRegistered(key) }) : () => ({});
  const answer: StatsAnswer = {
    from: dayString(range.fromDay),
    to: dayString(range.toDay),
    groupBy,
    totals: metrics(total),
    groups: named.map(([key, counts]) => ({ key, ...metrics(counts), ...registered(key) })),
  };
  if (groupBy === 'strategy') {
    // Pins against organic items, per strategy: the pinned cells hold the pins' part of each key's numbers.
    const pinned = new Map<number, Counts>();
    sumCells(attribution, range, groupBy, pinned, widgets, attribution.pins);
    answer.groups.forEach((group, i) => {
      const counts = named[i]![1];
      const pins = pinned.get(named[i]![2]) ?? zeros();
      group.pinned = metrics(pins);
      group.organic = metrics(counts.map((value, f) => value - pins[f]!) as Counts);
    });
  }
  if (groupBy === 'variant') {
    const byExperiment = new Map<number, Map<number, Counts>>();
    for (const [, counts, group] of named) {
      const experiment = Math.floor(group / 16);
      let variants = byExperiment.get(experiment);
      if (variants === undefined) byExperiment.set(experiment, (variants = new Map()));
      variants.set(group % 16, counts);
    }
    answer.experiments = [...byExperiment].sort(([a], [b]) => a - b).map(([experiment, variants]) => results(experiment, variants, 0));
  }
  return answer;
}

/**
 * The totals (from the key cells, as every grouping) and the MAX_PRODUCT_GROUPS products that
 * earned most over the range: by revenue, then clicks, then add-to-carts, then id.
 */
function topProducts(attribution: AttributionResults, range: StatsRange, titleOf: TitleOf | undefined): StatsAnswer {
  const total = sumCells(attribution, range, 'strategy', new Map());
  const byProduct = new Map<number, Counts>();
  const cells = attribution.products.cells;
  const rows = cells.rows;
  cells.forEach(range.fromDay, range.toDay, (_day, product, row) => {
    let counts = byProduct.get(product);
    if (counts === undefined) byProduct.set(product, (counts = zeros()));
    for (let f = 0; f < FIELDS; f++) counts[f as 0]! += rows[row * FIELDS + f]!;
  });
  const names = attribution.products.names;
  const ranked = [...byProduct].map(([index, counts]) => ({ key: names[index] ?? '(other)', counts }));
  ranked.sort((a, b) => b.counts[REVENUE] - a.counts[REVENUE] || b.counts[CLICKS] - a.counts[CLICKS] || b.counts[ADD_TO_CARTS] - a.counts[ADD_TO_CARTS] || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const answer: StatsAnswer = {
    from: dayString(range.fromDay),
    to: dayString(range.toDay),
    groupBy: 'product',
    totals: metrics(total),
    groups: ranked.slice(0, MAX_PRODUCT_GROUPS).map(({ key, counts }) => {
      const title = titleOf?.(key);
      return { key, ...(title === undefined ? {} : { title }), ...metrics(counts) };
    }),
  };
  // Days still kept as key cells but dropped from the (fuller) product table: say where products start.
  const productOldest = cells.oldestDay;
  const keyOldest = attribution.cells.oldestDay;
  if (productOldest !== undefined && keyOldest !== undefined && keyOldest < productOldest && productOldest > range.fromDay && productOldest <= range.toDay) {
    answer.productsFrom = dayString(productOldest);
  }
  return answer;
}

/** One experiment's variants over the range (at least `variantCount` of them, zeros where unseen) and each compared with A. */
export function experimentResults(attribution: AttributionResults, range: StatsRange, experiment: number, variantCount: number): ExperimentResults {
  const variants = new Map<number, Counts>();
  const rows = attribution.cells.rows;
  attribution.cells.forEach(range.fromDay, range.toDay, (_day, key, row) => {
    if (keyExperiment(key) !== experiment) return;
    let counts = variants.get(keyVariant(key));
    if (counts === undefined) variants.set(keyVariant(key), (counts = zeros()));
    for (let f = 0; f < FIELDS; f++) counts[f as 0]! += rows[row * FIELDS + f]!;
  });
  return results(experiment, variants, variantCount);
}

function results(experiment: number, counts: Map<number, Counts>, variantCount: number): ExperimentResults {
  let seen = variantCount;
  for (const v of counts.keys()) seen = Math.max(seen, v);
  const variants: (Metrics & { variant: string })[] = [];
  for (let v = 1; v <= seen; v++) variants.push({ variant: variantName(v), ...metrics(counts.get(v) ?? zeros()) });
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
