// A merchant's rule as the rule routes (and the dashboard's data) answer it, and a preview's answer,
// as types: one definition for the server and the dashboard's page (imported as types). Imports only types.
import type { Strategy } from '../engine/strategy.js';
import type { RecommendationResponse } from './recommendation-response.js';

export interface RuleView {
  id: string;
  enabled: boolean;
  from?: string;
  until?: string;
  when: { strategies?: Strategy[]; widgetIds?: string[]; collectionIds?: string[]; context?: string };
  then: {
    pin?: { productId: string; position: number }[];
    hide?: string;
    filter?: string;
    boost?: { filter: string; factor: number }[];
    diversity?: { by: string; max: number };
  };
  updatedAt: string;
}

export interface RuleList {
  rules: RuleView[];
}

/** PUT /api/rules/{id}: the rule as stored and the write's position (for `after=`). */
export interface RuleStored {
  rule: RuleView;
  position: string;
}

export interface RulePreview {
  before: RecommendationResponse;
  after: RecommendationResponse;
}

/** DELETE /api/rules/{id}. */
export interface RuleDeleted {
  success: true;
  deleted: string;
  position: string;
}
