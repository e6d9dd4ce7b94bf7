// The settings a shop's tuner chooses (tune.ts) and the report of how it chose them: plain data,
// carried with the EASE fit they were chosen with (one log entry), so every server process and
// cluster node installs the same ones at the same log position. The engine reads them in one
// place: EaseModel.blend, set when the fit is installed.
import type { CartBlend, EaseBlend } from '../ease/ease-blend.js';

/** What personalized reads (the blend) plus the λ its EASE fit was solved with, and what a cart's answers read. */
export interface TunedSettings extends EaseBlend {
  lambda: number;
  /** Bought-together's cart blend; absent in fits tuned before carts (the default then). */
  cart?: CartBlend;
}

/**
 * Why the installed settings are what they are:
 * tuned: the best setting beat the default by more than the margin (× its standard error);
 * default-best: no setting scored above the default;
 * within-noise: one did, by less than the margin;
 * too-little-data: too few shoppers to hold out (the default is kept unvalidated).
 */
export type TuningDecision = 'tuned' | 'default-best' | 'within-noise' | 'too-little-data';

/** nDCG@10 on the held-out purchases, averaged over the validation shoppers (null: not measured). */
export interface TuningScores {
  /** The installed settings. */
  chosen: number | null;
  default: number | null;
  /** The best setting of the grid (the chosen one unless it lost to the noise rule). */
  best: number | null;
  /** Products ranked by how many training shoppers hold them. */
  popularity: number | null;
}

export interface TuningReport {
  decision: TuningDecision;
  /** What is installed. */
  settings: TunedSettings;
  defaults: TunedSettings;
  /** The grid's best setting (equal to settings when tuned, or when the default was best). */
  best: TunedSettings;
  scores: TuningScores;
  /** Standard error of the mean per-shopper difference best − default (0 when not measured). */
  standardError: number;
  /** The margin: best − default must exceed margin × standardError to be installed. */
  margin: number;
  /** Shoppers whose purchases among the shop's newest were held out and predicted. */
  shoppers: number;
  /** Settings scored (blends × λs), and the λs fitted within the budget. */
  settingsTried: number;
  lambdasTried: number[];
  /** Wall time of the validation in the refit's thread (its CPU time: it runs on one thread), ms. */
  ms: number;
  /** Largest single allocation of the validation: the n×n Gram matrix (4n² bytes). */
  peakBytes: number;
  /** The cart blend's choice, at the chosen λ; absent when the budget left no time for its fit (the default blend then). */
  cart?: CartTuningReport;
}

/** How the cart blend was chosen (cart-scores.ts): on whole orders held out of the fit's histories. */
export interface CartTuningReport {
  decision: TuningDecision;
  /** What is installed (its content weight is the default's: content is not scored in the refit's thread). */
  settings: CartBlend;
  defaults: CartBlend;
  best: CartBlend;
  /** nDCG@10 on the held-out orders' rest, averaged over the carts (null: not measured). */
  scores: { chosen: number | null; default: number | null; best: number | null; easeAlone: number | null; pairsAlone: number | null };
  standardError: number;
  margin: number;
  /** Held-out orders scored. */
  carts: number;
  ms: number;
}

/** The blend part of the settings (what personalized reads per answer). */
export function blendOf(settings: TunedSettings): EaseBlend {
  return { realTimeWeight: settings.realTimeWeight, historyExponent: settings.historyExponent, momentumExponent: settings.momentumExponent };
}

export function sameSettings(a: TunedSettings, b: TunedSettings): boolean {
  return a.lambda === b.lambda && a.realTimeWeight === b.realTimeWeight && a.historyExponent === b.historyExponent && a.momentumExponent === b.momentumExponent;
}
