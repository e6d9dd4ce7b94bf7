// What a filter selects for one request, in the two forms an answer asks for: one product at a time
// (each candidate the strategy chain offers), or every selected product at once (a walk that
// restricts itself to them instead of the catalog). A set (MatchSet) is both; a relative filter
// (relative-selection.ts) tests candidates and makes its set only when asked.
import type { MatchSet } from './match-set.js';

export interface Selection {
  /** Whether the filter selects the product of dense id `id` (never one outside the catalog). */
  has(id: number): boolean;
  /** Every product it selects. Valid until the attribute index changes; do not modify it. */
  set(): MatchSet;
}
