// What an answer's constraints have in common (a request's filter and diversity, a rule's hide):
// asked about each candidate the strategy chain offers, in turn (pick-list.ts, answer-shaping.ts).
import type { MatchSet } from './filters/match-set.js';

export interface CandidateConstraint {
  /** Whether the answer may take `id` now (given what it took so far). Once false, false for the rest of the answer. */
  admits(id: number): boolean;
  /** The answer took `id`. */
  picked(id: number): void;
  /**
   * Removes from `products` (the caller's to modify; undefined: every catalog product) those it
   * never admits and returns them, for a walk that would otherwise look at the whole catalog
   * (PickList.within). Absent: no set says which it admits.
   */
  narrow?(products: MatchSet | undefined): MatchSet;
}
