// The trending score as documented (src/engine/strategies/trending.ts), written out independently
// so that tests can state what a score must be instead of pinning numbers:
//   score = recent × lift
//   lift  = (recent·ln2/h_short + prior) / (longTerm·ln2/h_long + prior),  prior = 3·ln2/h_long
// where `recent` is the product's weighted event count decayed with the trending half-life
// (h_short) and `longTerm` the same count decayed with the popularity half-life (h_long).
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from '../../src/config.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';

export type TrendingHalfLives = Pick<EngineConfig, 'trendingHalfLifeMs' | 'popularityHalfLifeMs'>;

/** Weighted events per long window in the lift's prior. */
export const TRENDING_PRIOR_EVENTS = 3;

/** The trending score of a product whose decayed weighted counts are `recent` and `longTerm`. */
export function expectedTrendingScore(recent: number, longTerm: number, halfLives: TrendingHalfLives = DEFAULT_ENGINE_CONFIG): number {
  const shortRate = Math.LN2 / halfLives.trendingHalfLifeMs;
  const longRate = Math.LN2 / halfLives.popularityHalfLifeMs;
  const prior = TRENDING_PRIOR_EVENTS * longRate;
  return (recent * (recent * shortRate + prior)) / (longTerm * longRate + prior);
}

/** The trending score of a product whose only events all happened now, `weighted` in all. */
export function expectedFreshScore(weighted: number, halfLives: TrendingHalfLives = DEFAULT_ENGINE_CONFIG): number {
  return expectedTrendingScore(weighted, weighted, halfLives);
}

export interface WeightedEvent {
  /** The event type's weight (DEFAULT_ENGINE_CONFIG.eventWeights). */
  weight: number;
  /** How long before "now" it happened, in ms. */
  ageMs: number;
}

/** Σ weight · 2^(−age/halfLife): a weighted event count decayed with `halfLifeMs`. */
export function decayedCount(events: readonly WeightedEvent[], halfLifeMs: number): number {
  return events.reduce((sum, e) => sum + e.weight * 2 ** (-e.ageMs / halfLifeMs), 0);
}

/** The trending score of a product that received exactly `events`. */
export function expectedTrendingScoreOf(events: readonly WeightedEvent[], halfLives: TrendingHalfLives = DEFAULT_ENGINE_CONFIG): number {
  return expectedTrendingScore(decayedCount(events, halfLives.trendingHalfLifeMs), decayedCount(events, halfLives.popularityHalfLifeMs), halfLives);
}

/** `count` events of one weight, all at age `ageMs` (0: now). */
export function repeated(count: number, weight: number, ageMs = 0): WeightedEvent[] {
  return Array.from({ length: count }, () => ({ weight, ageMs }));
}

/** A score as the HTTP API writes it (6 significant digits; see src/http/render.ts). */
export function wireScore(score: number): number {
  return score === 0 ? 0 : Number(score.toPrecision(6));
}

/** The decayed weighted counts an engine holds for `productId` at `now` (the formula's inputs). */
export function trendingInputs(engine: ShopEngine, productId: string, now: number): { recent: number; longTerm: number } {
  const dense = engine.catalog.denseOf(productId);
  if (dense === undefined) return { recent: 0, longTerm: 0 };
  return {
    recent: engine.trending.raw(dense) * engine.trending.scaleAt(now),
    longTerm: engine.popularity.raw(dense) * engine.popularity.scaleAt(now),
  };
}
