// An A/B experiment as the experiment routes (and the dashboard's data) answer it, as types: one
// definition for the server and the dashboard's page (imported as types). Imports only types.
import type { tags } from 'typia';
import type { Strategy } from '../engine/strategy.js';
import type { Comparison, Metrics } from './stats-answer.js';

/** A variant's strategy: one of the six, or `auto` (the placement's own choice). */
export type VariantStrategy = Strategy | 'auto';

export type ExperimentStatus = 'draft' | 'running' | 'stopped' | 'concluded';

/** An A/B experiment on a placement, as the experiment routes show it. */
export interface ExperimentView {
  id: string & tags.Pattern<'^exp_[0-9]+$'>;
  name: string;
  widgetId: string;
  status: ExperimentStatus;
  variants: { variant: string; strategy: VariantStrategy; share: number }[];
  createdAt: string & tags.Format<'date-time'>;
  startedAt?: string & tags.Format<'date-time'>;
  stoppedAt?: string & tags.Format<'date-time'>;
  concludedAt?: string & tags.Format<'date-time'>;
}

/** GET /api/experiments. */
export interface ExperimentList {
  experiments: ExperimentView[];
}

/** GET /api/experiments/{id}: the experiment with each variant's numbers so far, compared with A. */
export interface ExperimentWithResults extends ExperimentView {
  results: { variants: (Metrics & { variant: string })[]; comparisons: Comparison[] };
}

/** GET /dashboard/data/experiments: every experiment with its results so far, newest first. */
export interface DashboardExperiments {
  experiments: ExperimentWithResults[];
}
