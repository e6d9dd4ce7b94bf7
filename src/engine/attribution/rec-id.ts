// Recommendation ids (meta.recId): `rec_<strategy>_<experiment>_<variant>_<serial>`, e.g.
// `rec_t_0_0_k9x2a01c`. What attribution needs (the strategy that answered, the experiment and
// variant that chose it) is in the id itself, so no table of issued ids exists anywhere: an id
// counts after a restart, and one forged with the public key only moves the forger's own shop's
// numbers (as fake click events could anyway). The serial (a per-process random tag and a base36
// counter) only makes ids distinct; minting one is string concatenation, no crypto per request.
import type { Strategy } from '../strategy.js';

/** One letter per strategy; index + 1 is the strategy's number in attribution keys (0: none). */
export const STRATEGY_CODES = ['b', 's', 't', 'p', 'c', 'r'] as const;
export const CODED_STRATEGIES: readonly Strategy[] = ['bought-together', 'similar', 'trending', 'personalized', 'collection-popular', 'recently-viewed'];

/** Longest recId accepted on an event (longer: not a recId). */
export const MAX_REC_ID_LENGTH = 64;
/** Experiment numbers are 1 … MAX_EXPERIMENT_NUMBER (three base36 digits); 0: no experiment. */
export const MAX_EXPERIMENT_NUMBER = 36 ** 3 - 1;
/** Variant numbers are 1 … MAX_VARIANTS (one hex digit); 0: no experiment. */
export const MAX_VARIANTS = 15;

export interface RecIdParts {
  /** 1-6: CODED_STRATEGIES[strategy - 1]. */
  strategy: number;
  /** 0 when the answer was not part of an experiment. */
  experiment: number;
  /** 0 when the answer was not part of an experiment; else 1 … MAX_VARIANTS. */
  variant: number;
}

const CODE_OF: Readonly<Record<Strategy, string>> = Object.fromEntries(CODED_STRATEGIES.map((s, i) => [s, STRATEGY_CODES[i]!])) as Record<Strategy, string>;

/** `rec_<strategy>_<experiment>_<variant>_`: the part of an id fixed by the answer (cached with it). */
export function recIdPrefix(strategy: Strategy, experiment = 0, variant = 0): string {
  return `rec_${CODE_OF[strategy]}_${experiment.toString(36)}_${variant.toString(16)}_`;
}

const LOWER_A = 97;
const LOWER_Z = 122;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const UNDERSCORE = 95;

function base36Digit(c: number): number {
  if (c >= DIGIT_0 && c <= DIGIT_9) return c - DIGIT_0;
  if (c >= LOWER_A && c <= LOWER_Z) return c - LOWER_A + 10;
  return -1;
}

/**
 * The parts of a recId, or undefined for anything that is not exactly one (wrong shape, unknown
 * strategy letter, a number with leading zeros or out of range, an empty or non-base36 serial, past
 * MAX_REC_ID_LENGTH). Scans char codes: it runs once per event carrying an id.
 */
export function parseRecId(raw: string): RecIdParts | undefined {
  const n = raw.length;
  if (n > MAX_REC_ID_LENGTH || n < 11 || !raw.startsWith('rec_')) return undefined;
  const strategy = STRATEGY_CODES.indexOf(raw[4] as (typeof STRATEGY_CODES)[number]) + 1;
  if (strategy === 0 || raw.charCodeAt(5) !== UNDERSCORE) return undefined;
  // Experiment: base36, 1-3 digits, no leading zero unless it is "0".
  let i = 6;
  let experiment = 0;
  const expStart = i;
  for (; i < n && raw.charCodeAt(i) !== UNDERSCORE; i++) {
    const d = base36Digit(raw.charCodeAt(i));
    if (d < 0 || i - expStart >= 3) return undefined;
    experiment = experiment * 36 + d;
  }
  const expLength = i - expStart;
  if (expLength === 0 || (expLength > 1 && raw.charCodeAt(expStart) === DIGIT_0) || i >= n) return undefined;
  // Variant: one hex digit, 0 exactly when the experiment is 0.
  const v = raw.charCodeAt(++i);
  const variant = v >= DIGIT_0 && v <= DIGIT_9 ? v - DIGIT_0 : v >= LOWER_A && v <= 102 ? v - LOWER_A + 10 : -1;
  if (variant < 0 || raw.charCodeAt(++i) !== UNDERSCORE || (variant === 0) !== (experiment === 0)) return undefined;
  // Serial: at least one base36 character.
  if (++i >= n) return undefined;
  for (; i < n; i++) if (base36Digit(raw.charCodeAt(i)) < 0) return undefined;
  return { strategy, experiment, variant };
}
