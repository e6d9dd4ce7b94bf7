// Offline evaluation: replays the Online Retail dataset through the online engine (train period),
// then scores its answers on the test period next to a popularity baseline and the references
// (raw co-occurrence counts, dense EASE) computed in the same run. Every setting it chooses is
// chosen on the validation splits inside the training period (VALIDATION_CUTS, averaged), never
// on the test period. Usage: PAIRWISE_DATASET=path/to/online-retail.csv.gz npm run bench:quality
// (prints a table; writes bench/results/quality-*.json; the dataset: bench/README.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from '../../src/config.js';
import { recommend, type RecommendationRequest } from '../../src/engine/recommend.js';
import { fitInput } from '../../src/engine/ease/fit-input.js';
import { DEFAULT_EASE_BLEND } from '../../src/engine/ease/ease-model.js';
import { fitEase } from '../../src/engine/ease/solver.js';
import { ShopEngine } from '../../src/engine/shop-engine.js';
import type { Strategy } from '../../src/engine/strategy.js';
import { datasetFile, loadOnlineRetail, type RetailData } from './online-retail.js';
import { Scoreboard } from './metrics.js';
import { RawCountReference } from './basket-reference.js';
import { fitReference, rankReference, tuneLambda } from './ease-reference.js';
import { SPLIT_TIME, split, validationSplits, type Split, type ValidationSplit } from './protocol.js';
import { replayEngine, retailProduct } from './replay.js';

const K = 10;
/** λ values tried for the EASE reference on the validation split (the original reference used 500). */
const EASE_LAMBDAS = (process.env.PAIRWISE_EASE_LAMBDAS ?? '250,500,1000').split(',').map(Number);
/** The engine's EASE fit: products kept (the service's cap) and neighbours per row. */
const EASE_MAX_ITEMS = 5000;
const EASE_NEIGHBORS = Number(process.env.PAIRWISE_EASE_NEIGHBORS ?? 100);
/** Blends tried on validation: real-time weight × history exponent × momentum exponent. */
const REAL_TIME_WEIGHTS = [0, 0.1, 0.2, 0.5];
const HISTORY_EXPONENTS = [0, 0.25];
const MOMENTUM_EXPONENTS = [0, 0.25, 0.5, 0.75, 1];
const DAY_MS = 86_400_000;
/** Half-lives of basket pair weights (bought-together) tried on validation, in days, each with every pair floor. */
const PAIR_HALF_LIVES_DAYS = [20, 30, 60, 120];
const PAIR_FLOORS = [0, 0.03, 0.1];
/** Baskets of a confident pair (a row's best counts as at least one) tried on validation after the half-life and floor. */
const PAIR_CONFIDENCE_BASKETS = [0, 2, 3, 3.5, 4, 5];

/** Fits EASE on what the engine holds and installs it, as the service's refit does (synchronously here). */
function installEase(engine: ShopEngine, lambda: number): string {
  const started = performance.now();
  const input = fitInput(engine, EASE_MAX_ITEMS)!;
  const rows = fitEase(input.items.length, input.histories, lambda, EASE_NEIGHBORS)!;
  engine.installEase({ items: input.items, rows });
  return `${input.items.length} items, ${input.histories.starts.length - 1} shoppers, ${input.histories.items.length} entries, λ=${lambda}, K=${EASE_NEIGHBORS}: ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

function personalizedScoreAt(engine: ShopEngine, cases: Split['customerCases'], catalogSize: number, now: number): number {
  const board = new Scoreboard(K);
  for (const c of cases) board.add(engineIds(engine, { strategy: 'personalized', customerId: c.customerId, exclude: [] }, now), c.relevant);
  return board.result(catalogSize).ndcg;
}

function boughtTogetherScoreAt(engine: ShopEngine, s: Split, now: number): number {
  const board = new Scoreboard(K);
  for (const c of s.basketCases) board.add(engineIds(engine, { strategy: 'bought-together', productId: c.query, exclude: [] }, now), c.relevant);
  return board.result(s.trainItems.size).ndcg;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const scoresText = (scores: readonly number[]): string => `${mean(scores).toFixed(4)} (${scores.map((v) => v.toFixed(4)).join(', ')})`;

/** Bought-together's basket pair settings that bench:quality tunes. */
type BasketPairSettings = Pick<EngineConfig, 'pairHalfLifeMs' | 'pairFloor' | 'pairConfidenceBaskets'>;

/**
 * The basket pair settings with the best mean bought-together nDCG@10 over the validation splits:
 * half-life and floor together (at the default confident pair), then the confident pair at those;
 * returns them with the validation engines built with them (the personalized tuning reuses them).
 */
function tuneBasketPairs(data: RetailData, validation: readonly ValidationSplit[]): { settings: BasketPairSettings; engines: ShopEngine[] } {
  let best = { settings: {} as BasketPairSettings, ndcg: -1, engines: [] as ShopEngine[] };
  const consider = (settings: BasketPairSettings) => {
    const engines = validation.map((v) => buildEngine(data, v, settings));
    const scores = validation.map((v, i) => boughtTogetherScoreAt(engines[i]!, v, v.now));
    console.log(`  validation bought-together, ${basketSettingsText(settings)}: ${scoresText(scores)}`);
    if (mean(scores) > best.ndcg) best = { settings, ndcg: mean(scores), engines };
  };
  const confidence = DEFAULT_ENGINE_CONFIG.pairConfidenceBaskets;
  for (const halfLifeDays of PAIR_HALF_LIVES_DAYS) {
    for (const floor of PAIR_FLOORS) consider({ pairHalfLifeMs: halfLifeDays * DAY_MS, pairFloor: floor, pairConfidenceBaskets: confidence });
  }
  const { pairHalfLifeMs, pairFloor } = best.settings;
  for (const baskets of PAIR_CONFIDENCE_BASKETS) {
    if (baskets !== confidence) consider({ pairHalfLifeMs, pairFloor, pairConfidenceBaskets: baskets });
  }
  return best;
}

function basketSettingsText(settings: BasketPairSettings): string {
  return `pair half-life ${settings.pairHalfLifeMs / DAY_MS} days, floor ${settings.pairFloor}, confident pair ${settings.pairConfidenceBaskets} baskets`;
}

/** Products as the engine needs them: the dataset has only titles and prices. */
function buildEngine(data: RetailData, s: Split, settings: Partial<EngineConfig> = {}): ShopEngine {
  const prices = new Map(s.train.map((l) => [l.stockCode, l.price]));
  const products = [...s.trainItems].map((code) => retailProduct(code, data.titles.get(code) ?? code, prices.get(code)!));
  return replayEngine(products, s.train, settings);
}

/** All-time purchase counts, ties broken by product order. */
function popularity(data: RetailData, s: Split): string[] {
  const counts = new Map<string, number>();
  for (const line of s.train) counts.set(line.stockCode, (counts.get(line.stockCode) ?? 0) + 1);
  return [...counts.keys()].sort((a, b) => counts.get(b)! - counts.get(a)! || data.productOrder.get(a)! - data.productOrder.get(b)!);
}

function topExcept(ranking: readonly string[], skip: (id: string) => boolean): string[] {
  const out: string[] = [];
  for (const id of ranking) {
    if (!skip(id)) out.push(id);
    if (out.length === K) break;
  }
  return out;
}

function engineIds(engine: ShopEngine, request: Omit<RecommendationRequest, 'limit'>, now: number): string[] {
  return recommend(engine, { ...request, limit: K }, now).items.map((item) => item.product.id);
}

interface Row {
  task: string;
  method: string;
  cases: number;
  hr: number;
  ndcg: number;
  coverage: number;
}

function evaluate(file: string): Row[] {
  const data = loadOnlineRetail(file);
  const s = split(data);
  const validation = validationSplits(s.train);
  console.log(`validation cuts: ${validation.map((v) => `${new Date(v.now).toISOString().slice(0, 10)} (${v.basketCases.length} basket cases, ${v.customerCases.length} customers)`).join(', ')}`);
  const basketTuning = tuneBasketPairs(data, validation);
  console.log(`basket pairs chosen on validation: ${basketSettingsText(basketTuning.settings)} (defaults: ${basketSettingsText(DEFAULT_ENGINE_CONFIG)})`);
  const engine = buildEngine(data, s, basketTuning.settings);
  const popular = popularity(data, s);
  const catalogSize = s.trainItems.size;
  const rows: Row[] = [];
  const run = (task: string, method: string, each: (board: Scoreboard) => void) => {
    const board = new Scoreboard(K);
    each(board);
    rows.push({ task, method, ...board.result(catalogSize) });
  };

  const basket = s.basketCases;
  run('bought-together', 'popularity (baseline)', (board) => {
    for (const c of basket) board.add(topExcept(popular, (id) => id === c.query), c.relevant);
  });
  const rawCounts = new RawCountReference(s.train, data.productOrder);
  run('bought-together', 'raw counts (reference)', (board) => {
    for (const c of basket) board.add(rawCounts.rank(c.query, K), c.relevant);
  });
  for (const strategy of ['bought-together', 'similar', 'trending'] as Strategy[]) {
    run('bought-together', `engine: ${strategy}`, (board) => {
      for (const c of basket) board.add(engineIds(engine, { strategy, productId: c.query, exclude: [] }, SPLIT_TIME), c.relevant);
    });
  }

  const customers = s.customerCases;
  run('personalized', 'popularity (baseline)', (board) => {
    for (const c of customers) board.add(topExcept(popular, (id) => c.bought.has(id)), c.relevant);
  });
  // The batch reference, computed in this run: λ tuned on validation, fitted on the whole training period.
  const tuned = tuneLambda(validation, EASE_LAMBDAS, K, data.productOrder);
  console.log(`EASE λ on validation: ${[...tuned.scores].map(([l, v]) => `${l} → ${v.toFixed(4)}`).join(', ')}; chosen ${tuned.lambda}`);
  const reference = fitReference(s.train, tuned.lambda)!;
  run('personalized', `EASE λ=${tuned.lambda} (reference)`, (board) => {
    for (const c of customers) board.add(rankReference(reference, c.bought, K, data.productOrder), c.relevant);
  });
  run('personalized', 'engine: personalized', (board) => {
    for (const c of customers) {
      board.add(engineIds(engine, { strategy: 'personalized', customerId: c.customerId, exclude: [] }, SPLIT_TIME), c.relevant);
    }
  });

  // EASE inside the engine: the blend tuned on the validation engines, then the real one.
  const validationEngines = basketTuning.engines;
  validationEngines.forEach((e) => console.log(`validation engine EASE fit: ${installEase(e, tuned.lambda)}`));
  let best = { blend: DEFAULT_EASE_BLEND, ndcg: -1 };
  for (const momentumExponent of MOMENTUM_EXPONENTS) {
    for (const historyExponent of HISTORY_EXPONENTS) {
      for (const realTimeWeight of REAL_TIME_WEIGHTS) {
        const blend = { realTimeWeight, historyExponent, momentumExponent };
        const scores = validation.map((v, i) => {
          validationEngines[i]!.ease.blend = blend;
          return personalizedScoreAt(validationEngines[i]!, v.customerCases, v.trainItems.size, v.now);
        });
        console.log(`  validation blend real-time ${realTimeWeight}, history exponent ${historyExponent}, momentum ${momentumExponent}: ${scoresText(scores)}`);
        if (mean(scores) > best.ndcg) best = { blend, ndcg: mean(scores) };
      }
    }
  }
  console.log(`engine EASE fit: ${installEase(engine, tuned.lambda)}`);
  engine.ease.blend = best.blend;
  const { realTimeWeight, historyExponent, momentumExponent } = best.blend;
  run('personalized', `engine: EASE + rt ${realTimeWeight}^${historyExponent} m${momentumExponent}`, (board) => {
    for (const c of customers) {
      board.add(engineIds(engine, { strategy: 'personalized', customerId: c.customerId, exclude: [] }, SPLIT_TIME), c.relevant);
    }
  });
  return rows;
}

function table(rows: Row[]): string {
  const header = 'task             | method                             | cases | HR@10  | nDCG@10 | coverage';
  const lines = rows.map((r) =>
    [r.task.padEnd(16), r.method.padEnd(34), String(r.cases).padStart(5), r.hr.toFixed(4), r.ndcg.toFixed(4).padStart(7), r.coverage.toFixed(3).padStart(8)].join(' | '),
  );
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}

let file: string;
try {
  file = datasetFile();
} catch (error) {
  console.error(`bench:quality: ${(error as Error).message}`);
  process.exit(2);
}
const started = performance.now();
const rows = evaluate(file);
console.log(table(rows));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; train < 2011-10-01 ≤ test; binary relevance, k = ${K})`);
mkdirSync('bench/results', { recursive: true });
writeFileSync(`bench/results/quality-${new Date().toISOString().replace(/[:.]/g, '-')}.json`, JSON.stringify(rows, null, 2));
