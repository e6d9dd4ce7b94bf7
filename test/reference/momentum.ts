// Reference for engine/momentum.ts, in the plainest form: a product's sales kept as a list of
// (time, sales) and every sum taken at `now` directly, Σ sales · 2^(−age / half-life), with no
// landmark, no forward decay and no rescaling.
import { LONG_HALF_LIFE_MS, MAX_MOMENTUM, MIN_MOMENTUM, PRIOR_SALES, SALES_PER_UNIT } from '../../src/engine/momentum.js';

export interface Sale {
  t: number;
  sales: number;
}

const decayed = (sales: readonly Sale[], now: number, halfLifeMs: number) => sales.reduce((sum, s) => sum + s.sales * 2 ** (-(now - s.t) / halfLifeMs), 0);

/** The momentum of a product with these sales at `now`, recent sales decaying with `recentHalfLifeMs`. */
export function referenceMomentum(sales: readonly Sale[], now: number, recentHalfLifeMs: number, exponent: number): number {
  if (exponent === 0) return 1;
  const recentRate = (decayed(sales, now, recentHalfLifeMs) * LONG_HALF_LIFE_MS) / recentHalfLifeMs;
  const lift = (recentRate + PRIOR_SALES) / (decayed(sales, now, LONG_HALF_LIFE_MS) + PRIOR_SALES);
  const ever = sales.reduce((sum, s) => sum + s.sales, 0);
  const ceiling = Math.min(MAX_MOMENTUM, Math.max(MIN_MOMENTUM, ever / SALES_PER_UNIT));
  return Math.min(ceiling, Math.max(MIN_MOMENTUM, lift ** exponent));
}
