// A shop tunes itself: on a validation split of its own histories (validation-split.ts), scores a
// small grid of personalized's settings (validation-scores.ts) for each EASE λ the CPU budget
// allows (the default λ first, each further λ only when another fit still fits in the budget),
// and chooses with the noise rule (decision.ts); then, at the chosen λ and while the budget allows
// one more fit, bought-together's cart blend on whole orders held out (cart-split.ts,
// cart-scores.ts). Runs in the refit's worker thread: one Gram
// matrix (4n² bytes) at a time, as the fit itself. `clock` is the thread's ms clock (the budget).
import type { CartBlend } from '../ease/ease-blend.js';
import { DEFAULT_CART_BLEND, TIMELESS_EASE_BLEND } from '../ease/ease-model.js';
import { DEFAULT_ENGINE_CONFIG } from '../engine-config.js';
import { basketRows, cartDiscounts, scoreCarts, type PairStandIn } from './cart-scores.js';
import { cartSplit, type CartSplitOptions } from './cart-split.js';
import { easeWeights, gramMatrix, topRows, type Histories, type Matrix } from '../ease/solver.js';
import { chooseSetting, meanOf } from './decision.js';
import type { CartTuningReport, TunedSettings, TuningReport } from './tuned-settings.js';
import { blendsOf, jaccardRows, momentumBoosts, scoreBlends, scorePopularity, type BlendGrid } from './validation-scores.js';
import { DEFAULT_SPLIT, validationSplit, type SplitOptions, type TuningInput } from './validation-split.js';

export interface TuneOptions {
  defaults: TunedSettings;
  /** λs tried besides the default's, in this order while the budget lasts. */
  lambdas: readonly number[];
  grid: BlendGrid;
  /** EASE row size (as the fit's). */
  neighbors: number;
  /** Real-time neighbours per item (the engine keeps 16, buffering twice that). */
  realTimeNeighbors: number;
  /** Fewer validation shoppers than this: the defaults, untried. */
  minShoppers: number;
  /** Standard errors the best must beat the default by. */
  margin: number;
  /** Wall ms the validation may take (the default λ is always scored). */
  budgetMs: number;
  split: SplitOptions;
  /** The cart blend's tuning; absent: none (the default blend). */
  cart?: CartTuneOptions;
}

export interface CartTuneOptions {
  defaults: CartBlend;
  /** The blends scored (the defaults added); their content weight is ignored: each keeps the default's. */
  grid: readonly CartBlend[];
  split: CartSplitOptions;
  standIn: PairStandIn;
  /** Fewer held-out orders than this: the default blend, untried. */
  minCarts: number;
}

/**
 * EASE alone, the basket pairs beside it at a quarter to the same weight, and the pairs alone: the
 * ways of scoring a cart a shop may be better served by (docs/models.md, "Carts").
 */
export const CART_GRID: readonly CartBlend[] = Object.freeze(
  [
    [1, 0],
    [1, 0.25],
    [1, 0.5],
    [1, 1],
    [1, 2],
    [0, 1],
  ].map(([easeWeight, pairWeight]) => Object.freeze({ easeWeight: easeWeight!, pairWeight: pairWeight!, contentWeight: DEFAULT_CART_BLEND.contentWeight })),
);

/** The engine's basket rows as the stand-in scores them (the default engine config's). */
const STAND_IN: PairStandIn = Object.freeze({
  floor: DEFAULT_ENGINE_CONFIG.pairFloor,
  exponent: DEFAULT_ENGINE_CONFIG.pairPopularityExponent,
  neighbors: DEFAULT_ENGINE_CONFIG.maxNeighbors,
});

/**
 * Momentum 0 (off) to 1 (the default), EASE alone to the real-time score at full weight, λ around
 * the default. The history exponent stays the default's: weighing a shopper's newest interests more
 * always wins on held-out newest purchases and lost on the later test period, measured black-box on
 * Online Retail (history exponent 1 chosen: retail-time 0.139 and retail-random 0.089 against 0.148
 * and 0.099 with the defaults).
 */
export const DEFAULT_GRID: Readonly<BlendGrid> = Object.freeze({
  momentumExponents: [0, 0.5, 1],
  realTimeWeights: [0, 0.1, 0.3, 1],
  historyExponents: [0],
});

/**
 * A shop's recency setting: auto, the tuner decides how much time counts (momentum, history
 * exponent) on the shop's newest purchases; off, nothing time-based is used (the defaults' momentum
 * and history exponent are taken as 0, as answers apply them) and EASE's λ is tuned on whole
 * orders spread over each history, EASE alone (TIMELESS_EASE_BLEND).
 */
export type Recency = 'auto' | 'off';

export function tuneOptions(defaults: TunedSettings, neighbors: number, budgetMs: number, recency: Recency = 'auto'): TuneOptions {
  const { lambda } = defaults;
  const timeless = recency === 'off';
  return {
    // Scored as answers apply them: with recency off, a default with momentum would be judged by a prior no answer uses.
    defaults: timeless ? { ...defaults, ...TIMELESS_EASE_BLEND } : defaults,
    lambdas: [lambda / 4, lambda * 4],
    // With recency off, the defaults' blend alone (tune() adds the defaults to any grid): only λ is tried.
    grid: timeless ? { momentumExponents: [], realTimeWeights: [], historyExponents: [] } : DEFAULT_GRID,
    neighbors,
    realTimeNeighbors: 32,
    minShoppers: 50,
    margin: 3,
    budgetMs,
    split: timeless ? { ...DEFAULT_SPLIT, recentShare: 0.2, held: 'orders' } : DEFAULT_SPLIT,
    cart: {
      defaults: DEFAULT_CART_BLEND,
      grid: CART_GRID,
      // The shop's newest orders, as its next carts come after them; with recency off, every 5th.
      split: timeless ? { held: 'orders', share: 0.2, maxCarts: 3000 } : { held: 'newest', share: 0.1, maxCarts: 3000 },
      standIn: STAND_IN,
      minCarts: 50,
    },
  };
}

/** The grid with the default blend in it (its index returned), whatever the grid says. */
function gridWithDefault(grid: BlendGrid, d: TunedSettings): BlendGrid {
  const add = (values: readonly number[], value: number) => (values.includes(value) ? values : [...values, value]);
  return {
    momentumExponents: add(grid.momentumExponents, d.momentumExponent),
    realTimeWeights: add(grid.realTimeWeights, d.realTimeWeight),
    historyExponents: add(grid.historyExponents, d.historyExponent),
  };
}

/** EASE rows over `histories` at λ (undefined: not positive definite), computed in `matrix`. */
function easeRows(n: number, histories: Histories, lambda: number, neighbors: number, matrix: Matrix) {
  const g = gramMatrix(n, histories, 'single', matrix);
  return easeWeights(g, n, lambda) ? topRows(g, n, neighbors, true) : undefined;
}

/** Chooses the shop's settings; `n` items, `histories` the fit's input (values 1). */
/**
 * `matrix`: an n×n single-precision buffer every fit of the tuning reuses (the refit then solves
 * its own fit in it too), so one 4n²-byte matrix serves the whole refit.
 */
export function tune(n: number, histories: Histories, input: TuningInput, options: TuneOptions, clock: () => number, matrix: Matrix = new Float32Array(n * n)): TuningReport {
  const started = clock();
  const { defaults } = options;
  const split = validationSplit(n, histories, input, options.split);
  const shoppers = split.rows.length;
  const peakBytes = matrix.byteLength;
  const untried = (): TuningReport => ({
    decision: 'too-little-data',
    settings: defaults,
    defaults,
    best: defaults,
    scores: { chosen: null, default: null, best: null, popularity: null },
    standardError: 0,
    margin: options.margin,
    shoppers,
    settingsTried: 0,
    lambdasTried: [],
    ms: clock() - started,
    peakBytes,
  });
  if (shoppers < options.minShoppers) return untried();

  const grid = gridWithDefault(options.grid, defaults);
  const blends = blendsOf(grid);
  const realTime = jaccardRows(gramMatrix(n, split.train, 'single', matrix), n, options.realTimeNeighbors);
  const boosts = momentumBoosts(input.items, split, grid.momentumExponents);
  const settings: TunedSettings[] = [];
  const scores: Float32Array[] = [];
  const lambdasTried: number[] = [];
  let slowest = 0;
  for (const lambda of [defaults.lambda, ...options.lambdas.filter((l) => l !== defaults.lambda)]) {
    if (lambdasTried.length > 0 && clock() - started + slowest > options.budgetMs) break;
    const fitStarted = clock();
    const ease = easeRows(n, split.train, lambda, options.neighbors, matrix);
    if (ease === undefined) continue;
    const perBlend = scoreBlends(n, split, ease, realTime, boosts, grid);
    for (let b = 0; b < blends.length; b++) {
      settings.push({ ...blends[b]!, lambda });
      scores.push(perBlend[b]!);
    }
    lambdasTried.push(lambda);
    slowest = Math.max(slowest, clock() - fitStarted);
  }
  const defaultIndex = settings.findIndex((s) => s.lambda === defaults.lambda && s.realTimeWeight === defaults.realTimeWeight && s.historyExponent === defaults.historyExponent && s.momentumExponent === defaults.momentumExponent);
  if (defaultIndex < 0) return untried(); // the default λ did not fit: the fit itself will say so
  const choice = chooseSetting(scores, defaultIndex, options.margin);
  const mean = (i: number) => {
    let sum = 0;
    for (const x of scores[i]!) sum += x;
    return sum / shoppers;
  };
  const popularity = scorePopularity(n, split);
  let popularityMean = 0;
  for (const x of popularity) popularityMean += x;
  const chosen = settings[choice.index]!;
  // The cart blend, at the λ just chosen, when one more fit fits in the budget.
  const cart = options.cart !== undefined && clock() - started + slowest <= options.budgetMs ? tuneCarts(n, histories, input, chosen.lambda, options, options.cart, clock, matrix) : undefined;
  return {
    decision: choice.decision,
    settings: cart === undefined ? chosen : { ...chosen, cart: cart.settings },
    defaults,
    best: settings[choice.best]!,
    scores: { chosen: mean(choice.index), default: mean(defaultIndex), best: mean(choice.best), popularity: popularityMean / shoppers },
    standardError: choice.comparison.standardError,
    margin: options.margin,
    shoppers,
    settingsTried: settings.length,
    lambdasTried,
    ms: clock() - started,
    peakBytes,
    ...(cart === undefined ? {} : { cart }),
  };
}

/** Chooses the cart blend on whole orders held out of the histories, EASE fitted at `lambda`; undefined when λ does not fit. */
function tuneCarts(n: number, histories: Histories, input: TuningInput, lambda: number, options: TuneOptions, cart: CartTuneOptions, clock: () => number, matrix: Matrix): CartTuningReport | undefined {
  const started = clock();
  const split = cartSplit(histories, input, cart.split);
  const carts = split.carts.cartSizes.length;
  const keep = (blend: CartBlend): CartBlend => ({ ...blend, contentWeight: cart.defaults.contentWeight });
  const grid = [cart.defaults, ...cart.grid.filter((b) => b.easeWeight !== cart.defaults.easeWeight || b.pairWeight !== cart.defaults.pairWeight)].map(keep);
  const report = (fields: Partial<CartTuningReport>): CartTuningReport => ({
    decision: 'too-little-data',
    settings: cart.defaults,
    defaults: cart.defaults,
    best: cart.defaults,
    scores: { chosen: null, default: null, best: null, easeAlone: null, pairsAlone: null },
    standardError: 0,
    margin: options.margin,
    carts,
    ms: clock() - started,
    ...fields,
  });
  if (carts < cart.minCarts) return report({});
  const orders = gramMatrix(n, split.orders, 'single', matrix);
  const pairs = basketRows(orders, n, cart.standIn);
  const discounts = cartDiscounts(orders, n); // read before EASE's solve reuses the matrix
  const ease = easeRows(n, split.train, lambda, options.neighbors, matrix);
  if (ease === undefined) return undefined;
  const scores = scoreCarts(n, split, ease, pairs, grid, discounts);
  const choice = chooseSetting(scores, 0, options.margin);
  const mean = (i: number) => (i < 0 ? null : meanOf(scores[i]!));
  const index = (e: number, p: number) => grid.findIndex((b) => b.easeWeight === e && b.pairWeight === p);
  return report({
    decision: choice.decision,
    settings: grid[choice.index]!,
    best: grid[choice.best]!,
    scores: { chosen: mean(choice.index), default: mean(0), best: mean(choice.best), easeAlone: mean(index(1, 0)), pairsAlone: mean(index(0, 1)) },
    standardError: choice.comparison.standardError,
    ms: clock() - started,
  });
}
