// What GET /api/stats (and the dashboard's data) answers, as types: one definition for the server
// (analytics/statistics.ts computes it) and the dashboard's page (imported as types, bundled by
// esbuild): this file imports nothing.

/** A rate with its 95 % interval (Wilson). */
export interface Interval {
  /** successes / trials; null when there were no trials. */
  rate: number | null;
  low: number | null;
  high: number | null;
}

export type GroupBy = 'strategy' | 'widget' | 'variant' | 'day' | 'product';

export interface Metrics {
  impressions: number;
  clicks: number;
  addToCarts: number;
  orders: number;
  /** Attributed revenue, rounded to cents. */
  revenue: number;
  /**
   * The part of `revenue` from purchases a public key sent (a storefront's report, bounded by catalog
   * prices), rounded to cents; the rest came from a secret key (the merchant's server).
   */
  storefrontRevenue: number;
  /** Of these clicks, those the shopper followed with an add_to_cart of the product within the attribution window (each click once). */
  cartedClicks: number;
  /** Of these clicks, those the shopper followed with a purchase of the product within the attribution window (each click once). */
  convertedClicks: number;
  /** clicks / impressions. */
  ctr: Interval;
  /** cartedClicks / clicks: within [0, 1]. */
  addToCartRate: Interval;
  /** convertedClicks / clicks: within [0, 1], however many orders one click was followed by. */
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

/** One group of an answer: its key (a strategy, widget, variant, day or product) and its numbers. */
export interface StatsGroup extends Metrics {
  key: string;
  /** groupBy=product: the catalog's title, when the product is in it. */
  title?: string;
  /** groupBy=widget: whether the merchant registered the name (false: a storefront sent it, or (none) / (other)). */
  registered?: boolean;
  /** groupBy=strategy: the part of these numbers that items pinned by the shop's rules earned … */
  pinned?: Metrics;
  /** … and the part the strategy's own (organic) items earned. */
  organic?: Metrics;
}

export interface StatsAnswer {
  from: string;
  to: string;
  groupBy: GroupBy;
  totals: Metrics;
  groups: StatsGroup[];
  /** With groupBy=variant: each experiment seen in the range. */
  experiments?: ExperimentResults[];
  /**
   * With groupBy=product: the first day of the range that has per-product numbers, when later than
   * `from` (older days were dropped to stay within the per-product bound).
   */
  productsFrom?: string;
}
