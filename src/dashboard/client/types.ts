// The JSON the dashboard page reads, as the server's response types define it (src/api/responses.ts,
// src/analytics/statistics.ts); only the fields the page shows. Kept apart from the server's modules
// so this browser bundle never pulls in Node code.

export interface Interval {
  rate: number | null;
  low: number | null;
  high: number | null;
}

export interface Metrics {
  impressions: number;
  clicks: number;
  addToCarts: number;
  orders: number;
  revenue: number;
  /** The part of revenue a public key reported (bounded by catalog prices). */
  storefrontRevenue: number;
  /** Clicks followed by an add-to-cart, and by an order, of the product (each click once). */
  cartedClicks: number;
  convertedClicks: number;
  ctr: Interval;
  addToCartRate: Interval;
  conversionRate: Interval;
}

export type GroupBy = 'strategy' | 'widget' | 'variant' | 'day' | 'product';

export interface StatsAnswer {
  from: string;
  to: string;
  groupBy: GroupBy;
  totals: Metrics;
  /** registered: with groupBy=widget, whether the merchant registered the name (else a storefront sent it). */
  /** pinned / organic: with groupBy=strategy, the part items pinned by rules earned and the rest. */
  groups: (Metrics & { key: string; title?: string; registered?: boolean; pinned?: Metrics; organic?: Metrics })[];
  productsFrom?: string;
}

export interface Comparison {
  variant: string;
  against: string;
  difference: number | null;
  low: number | null;
  high: number | null;
  verdict: string;
  impressionsNeededPerVariant: number | null;
  moreImpressionsNeeded: number | null;
}

export type ExperimentStatus = 'draft' | 'running' | 'stopped' | 'concluded';

export interface Experiment {
  id: string;
  name: string;
  widgetId: string;
  status: ExperimentStatus;
  variants: { variant: string; strategy: string; share: number }[];
  createdAt: string;
  startedAt?: string;
  stoppedAt?: string;
  concludedAt?: string;
  results: { variants: (Metrics & { variant: string })[]; comparisons: Comparison[] };
}

/** A rule as GET /dashboard/data/rules gives it (the body PUT takes, plus its id and updatedAt). */
export interface Rule {
  id: string;
  enabled: boolean;
  from?: string;
  until?: string;
  when: Record<string, unknown>;
  then: Record<string, unknown>;
  updatedAt: string;
}

export interface PreviewItem {
  id: string;
  title: string;
  strategy: string;
  ruleId?: string;
}

export interface RulePreview {
  before: { products: PreviewItem[] };
  after: { products: PreviewItem[] };
}

export interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { pointer: string; detail: string; position?: number; expected?: string }[];
}

export const VARIANT_STRATEGIES = ['auto', 'trending', 'bought-together', 'similar', 'personalized', 'collection-popular', 'recently-viewed'] as const;
