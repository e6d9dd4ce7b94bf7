// The JSON the dashboard page reads: the server's own definitions (api/), imported as types only so
// this browser bundle pulls in no server code, and the few shapes only the page has.
import type { RecommendedProduct } from '../../api/recommendation-response.js';
import type { ExperimentWithResults, VariantStrategy } from '../../api/experiment-view.js';

export type { GroupBy, Interval, Metrics, StatsAnswer } from '../../api/stats-answer.js';
export type { RulePreview, RuleView as Rule } from '../../api/rule-view.js';

/** An experiment with its results so far, as GET /dashboard/data/experiments lists them. */
export type Experiment = ExperimentWithResults;

/** An item of a rule preview's lists. */
export type PreviewItem = RecommendedProduct;

/** A problem+json answer, as the page reads it (src/errors.ts writes it). */
export interface Problem {
  status: number;
  code: string;
  detail: string;
  errors?: { pointer: string; detail: string; position?: number; expected?: string }[];
}

/** The strategies an experiment's variant may run, in the order the form offers them. */
export const VARIANT_STRATEGIES = ['auto', 'trending', 'bought-together', 'similar', 'personalized', 'collection-popular', 'recently-viewed'] as const satisfies readonly VariantStrategy[];
