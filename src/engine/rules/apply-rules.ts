// What matching rules do to an answer after its candidates are collected, in this order (docs/api.md):
//   1. filter and hide already removed products while the chain collected (rule-constraints.ts);
//   2. boost and bury multiply the scores of the products their filters select, and the candidates
//      are re-ranked by the new scores within the run of the strategy that produced them (a backfill
//      strategy's scores are not on the primary's scale, so backfill stays behind);
//   3. diversity keeps, in that order, at most `max` products per value of its attribute;
//   4. the list is cut to the organic count, and pins are placed at their positions.
// Work is bounded by the window (at most MAX_RULE_WINDOW candidates), never the catalog.
import type { Strategy } from '../strategy.js';

/** The most candidates an answer collects for its rules to re-rank and diversify. */
export const MAX_RULE_WINDOW = 72;
/** How many candidates per wanted item the window holds when a boost or a diversity applies. */
export const RULE_WINDOW_FACTOR = 3;

/** The matching rules' boosts, in composition order. */
export interface Boosts {
  /** The distinct filters they test: each asked once per candidate. */
  readonly tests: readonly ((id: number) => boolean)[];
  /** Per boost: the index of its filter in `tests`, and its factor. */
  readonly testOf: readonly number[];
  readonly factors: readonly number[];
}

export interface Cap {
  /** The product's value of the capped attribute (undefined: none, never capped). */
  valueOf(id: number): string | undefined;
  readonly max: number;
}

export interface Pin {
  readonly id: number;
  /** 1-based. */
  readonly position: number;
  readonly ruleId: string;
}

/** The collected candidates, in chain order; rewritten in place by finishAnswer. */
export interface Candidates {
  ids: number[];
  scores: number[];
  strategies: Strategy[];
  /** The rule that pinned each item (undefined: organic). */
  ruleIds: (string | undefined)[];
}

export interface RuleEffects {
  readonly boosts: Boosts;
  readonly caps: readonly Cap[];
  /** Eligible pins in composition order, distinct products, positions within the answer's limit. */
  readonly pins: readonly Pin[];
}

/**
 * Applies boosts, caps and pins to `candidates` (steps 2-4 above): at most `organic` of them stay,
 * then each pin goes at its position (or at the end of a shorter list); pins sharing a position
 * keep their composition order, the later one right after the earlier. Pinned items are labelled
 * with the answer's strategy `primary` and score 0.
 */
export function finishAnswer(candidates: Candidates, effects: RuleEffects, organic: number, primary: Strategy): void {
  const { ids, scores, strategies } = candidates;
  let order = ids.map((_, i) => i);
  const { tests, testOf, factors } = effects.boosts;
  if (factors.length > 0) {
    // Each distinct filter asked once per candidate; the factors multiply in composition order.
    const selected = new Uint8Array(tests.length);
    const boosted = scores.slice();
    for (let i = 0; i < ids.length; i++) {
      for (let t = 0; t < tests.length; t++) selected[t] = tests[t]!(ids[i]!) ? 1 : 0;
      for (let k = 0; k < factors.length; k++) if (selected[testOf[k]!] === 1) boosted[i]! *= factors[k]!;
    }
    // Stable re-rank within each run of one strategy.
    let start = 0;
    while (start < order.length) {
      let end = start + 1;
      while (end < order.length && strategies[end] === strategies[start]) end++;
      const run = order.slice(start, end).sort((a, b) => boosted[b]! - boosted[a]! || a - b);
      for (let k = 0; k < run.length; k++) order[start + k] = run[k]!;
      start = end;
    }
    for (let i = 0; i < ids.length; i++) scores[i] = boosted[i]!;
  }
  if (effects.caps.length > 0) {
    const held: string[][] = effects.caps.map(() => []);
    order = order.filter((i) => {
      const values = effects.caps.map((cap) => cap.valueOf(ids[i]!));
      for (let c = 0; c < effects.caps.length; c++) {
        const value = values[c];
        if (value !== undefined && held[c]!.filter((v) => v === value).length >= effects.caps[c]!.max) return false;
      }
      for (let c = 0; c < effects.caps.length; c++) if (values[c] !== undefined) held[c]!.push(values[c]!);
      return true;
    });
  }
  if (order.length > organic) order.length = Math.max(0, organic);
  const outIds = order.map((i) => ids[i]!);
  const outScores = order.map((i) => scores[i]!);
  const outStrategies = order.map((i) => strategies[i]!);
  const outRules: (string | undefined)[] = order.map(() => undefined);
  const pins = effects.pins.map((pin, k) => ({ pin, k })).sort((a, b) => a.pin.position - b.pin.position || a.k - b.k);
  let previous = -1;
  for (const { pin } of pins) {
    const at = Math.min(Math.max(pin.position - 1, previous + 1), outIds.length);
    outIds.splice(at, 0, pin.id);
    outScores.splice(at, 0, 0);
    outStrategies.splice(at, 0, primary);
    outRules.splice(at, 0, pin.ruleId);
    previous = at;
  }
  candidates.ids = outIds;
  candidates.scores = outScores;
  candidates.strategies = outStrategies;
  candidates.ruleIds = outRules;
}
