// The noise rule of the tuner: a setting replaces the default only when its mean per-shopper
// score beats the default's by more than `margin` standard errors of the paired difference
// (the same shoppers score both, so their difference carries far less noise than either score).
// Picking the best of a grid inflates its lead a little (the winner's curse): the margin guards it.

export interface PairedComparison {
  /** Mean over shoppers of candidate − baseline. */
  mean: number;
  /** Its standard error: sd(difference) / √shoppers (0 for fewer than two shoppers). */
  standardError: number;
}

/** Mean of a per-shopper score vector. */
export function meanOf(scores: Float32Array | Float64Array): number {
  let sum = 0;
  for (let s = 0; s < scores.length; s++) sum += scores[s]!;
  return scores.length === 0 ? 0 : sum / scores.length;
}

export function pairedComparison(candidate: Float32Array | Float64Array, baseline: Float32Array | Float64Array): PairedComparison {
  const count = candidate.length;
  if (baseline.length !== count) throw new RangeError(`paired scores need the same shoppers: ${count} against ${baseline.length}`);
  if (count === 0) return { mean: 0, standardError: 0 };
  let sum = 0;
  for (let s = 0; s < count; s++) sum += candidate[s]! - baseline[s]!;
  const mean = sum / count;
  if (count < 2) return { mean, standardError: 0 };
  let squares = 0;
  for (let s = 0; s < count; s++) squares += (candidate[s]! - baseline[s]! - mean) ** 2;
  return { mean, standardError: Math.sqrt(squares / (count - 1) / count) };
}

export interface Choice {
  /** Index of the setting to install. */
  index: number;
  /** Index of the best-scoring setting (ties: the lower index). */
  best: number;
  decision: 'tuned' | 'default-best' | 'within-noise';
  comparison: PairedComparison;
}

/**
 * Which of `scores` (one per-shopper vector per setting, same shoppers in the same order) to
 * install: the best by mean when it beats scores[defaultIndex] by more than margin × its standard
 * error, else the default.
 */
export function chooseSetting(scores: readonly (Float32Array | Float64Array)[], defaultIndex: number, margin: number): Choice {
  let best = defaultIndex;
  let bestMean = meanOf(scores[defaultIndex]!);
  for (let i = 0; i < scores.length; i++) {
    const mean = meanOf(scores[i]!);
    if (mean > bestMean) {
      best = i;
      bestMean = mean;
    }
  }
  const comparison = pairedComparison(scores[best]!, scores[defaultIndex]!);
  if (best === defaultIndex) return { index: defaultIndex, best, decision: 'default-best', comparison };
  const wins = comparison.mean > margin * comparison.standardError && comparison.mean > 0;
  return { index: wins ? best : defaultIndex, best, decision: wins ? 'tuned' : 'within-noise', comparison };
}
