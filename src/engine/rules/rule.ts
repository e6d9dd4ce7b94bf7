// A merchandising rule as the engine holds it (PUT /api/rules/{id}): when it applies (its window,
// the request it matches) and what it does to the answer's ranked candidates (apply-rules.ts).
// Filters are kept as their text; the rule book parses and compiles them for the shop.
import type { Strategy } from '../strategy.js';

/** Rules a shop may hold (enforced where a rule is appended to the log). */
export const MAX_RULES_PER_SHOP = 100;
/** Boosts a rule may hold (the bound its wire type enforces). */
export const MAX_BOOSTS_PER_RULE = 8;

export interface RulePin {
  /** Bare product id. */
  readonly productId: string;
  /** 1-based position in the answer. */
  readonly position: number;
}

export interface RuleBoost {
  readonly filter: string;
  /** Multiplies the score of the products the filter selects: above 1 boosts, below 1 buries. */
  readonly factor: number;
}

export interface RuleWhen {
  /** The answer's strategy (asked for or chosen automatically) is one of these. */
  readonly strategies?: readonly Strategy[];
  readonly widgetIds?: readonly string[];
  readonly collectionIds?: readonly string[];
  /** A filter the request's context product must satisfy, for a cart any of its products (no context product: no match). */
  readonly context?: string;
}

export interface RuleThen {
  /** Only products it selects remain. */
  readonly filter?: string;
  /** Products it selects are removed. */
  readonly hide?: string;
  readonly boost?: readonly RuleBoost[];
  readonly diversity?: { readonly by: string; readonly max: number };
  readonly pin?: readonly RulePin[];
}

export interface Rule {
  readonly id: string;
  readonly enabled: boolean;
  /** Epoch ms: in force from (inclusive) … until (exclusive); absent: unbounded. */
  readonly from?: number;
  readonly until?: number;
  readonly when: RuleWhen;
  readonly then: RuleThen;
  /** Epoch ms of the write that stored it. */
  readonly updatedAt: number;
}

/** Whether the rule is in force at `now` (enabled, within its window). */
export function inForce(rule: Rule, now: number): boolean {
  return rule.enabled && (rule.from === undefined || now >= rule.from) && (rule.until === undefined || now < rule.until);
}
