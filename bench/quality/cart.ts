// Basket completion in process: the Online Retail dataset replayed through the engine, a cart of up
// to five products from each later order sent as productIds, the rest of the order relevant
// (nDCG@10), as the API-level basket-completion evaluation asks it. The cart blend (EASE, basket pairs,
// content: ease-blend.ts) is chosen on validation carved from the training orders only, split by
// time (the three VALIDATION_CUTS) and at random (a quarter of the training orders), then scored
// on the held-out test period beside references computed in the same run (summed raw counts,
// EASE x·B over the cart). The engine's EASE fit is the service's: λ 500, K 100, its own fit input.
// Usage: PAIRWISE_DATASET=path/to/online-retail.csv.gz npm run bench:quality-cart
import type { CartBlend } from '../../src/engine/ease/ease-blend.js';
import { DEFAULT_CART_BLEND } from '../../src/engine/ease/ease-model.js';
import { fitInput } from '../../src/engine/ease/fit-input.js';
import { fitEase } from '../../src/engine/ease/solver.js';
import { recommend } from '../../src/engine/recommend.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { prng } from '../support/prng.js';
import { fitReference } from './ease-reference.js';
import { Scoreboard } from './metrics.js';
import { datasetFile, loadOnlineRetail, type OrderLine, type RetailData } from './online-retail.js';
import { SPLIT_TIME, VALIDATION_CUTS, VALIDATION_WINDOW_MS } from './protocol.js';
import { replayEngine, retailProduct } from './replay.js';

const K = 10;
const CASES = 5000;
const EASE_LAMBDA = 500;
const EASE_NEIGHBORS = 100;
const EASE_MAX_ITEMS = 5000;
/** The blends scored on validation: EASE alone, pairs alone, and both with content from 0 to 1. */
const PAIR_WEIGHTS = [0, 0.25, 0.5, 1, 2];
const CONTENT_WEIGHTS = [0, 0.15, 0.3, 0.6];

interface CartCase {
  cart: string[];
  relevant: Set<string>;
}

interface CartSplit {
  name: string;
  train: OrderLine[];
  cases: CartCase[];
  /** When its answers are asked: the end of its training period. */
  now: number;
}

/** Every order of `test` with 3 or more distinct products, shuffled, its first min(5, ⌊n/2⌋) the cart; 5,000 sampled. */
function cartCases(test: readonly OrderLine[], seed = 42): CartCase[] {
  const orders = new Map<string, string[]>();
  for (const line of test) {
    let items = orders.get(line.invoice);
    if (!items) orders.set(line.invoice, (items = []));
    if (!items.includes(line.stockCode)) items.push(line.stockCode);
  }
  const shuffle = <T>(items: T[], random: () => number): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };
  const random = prng(seed + 7);
  const all = [...orders.values()]
    .filter((items) => items.length >= 3)
    .map((items) => {
      const shuffled = shuffle([...items], random);
      const q = Math.min(5, Math.floor(shuffled.length / 2));
      return { cart: shuffled.slice(0, q), relevant: new Set(shuffled.slice(q)) };
    });
  return shuffle(all, prng(seed)).slice(0, CASES);
}

/** Orders split at random: each invoice in `first` with probability `share`. */
function byOrder(lines: readonly OrderLine[], share: number, seed: number): { first: OrderLine[]; second: OrderLine[] } {
  const random = prng(seed);
  const inFirst = new Map<string, boolean>();
  const first: OrderLine[] = [];
  const second: OrderLine[] = [];
  for (const line of lines) {
    let chosen = inFirst.get(line.invoice);
    if (chosen === undefined) inFirst.set(line.invoice, (chosen = random() < share));
    (chosen ? first : second).push(line);
  }
  return { first, second };
}

function timeSplit(name: string, lines: readonly OrderLine[], cut: number, end = Infinity): CartSplit {
  const train = lines.filter((l) => l.time < cut);
  return { name, train, cases: cartCases(lines.filter((l) => l.time >= cut && l.time < end)), now: cut };
}

function randomSplit(name: string, lines: readonly OrderLine[], seed: number): CartSplit {
  const { first, second } = byOrder(lines, 0.75, seed);
  return { name, train: first, cases: cartCases(second), now: first[first.length - 1]!.time };
}

/** The catalog as the API-level evaluation loads it: title, its last word as type, its words as tags, a collection per stock-code prefix. */
function catalog(data: RetailData): ReturnType<typeof retailProduct>[] {
  const prices = new Map<string, number[]>();
  for (const line of data.lines) {
    let list = prices.get(line.stockCode);
    if (!list) prices.set(line.stockCode, (list = []));
    list.push(line.price);
  }
  return [...prices].map(([code, list]) => {
    const title = data.titles.get(code) ?? code;
    const words = title.split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w));
    const tags = [...new Set(title.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !/^\d+$/.test(w)))];
    const sorted = [...list].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    return retailProduct(code, title, median, { productType: words.length > 0 ? words[words.length - 1]!.toLowerCase() : 'other', tags, collections: [`sc-${code.slice(0, 3).toLowerCase()}`] });
  });
}

function installEase(engine: ShopEngine): void {
  const input = fitInput(engine, EASE_MAX_ITEMS)!;
  engine.installEase({ items: input.items, rows: fitEase(input.items.length, input.histories, EASE_LAMBDA, EASE_NEIGHBORS)! });
}

function score(rank: (c: CartCase) => string[], cases: readonly CartCase[], catalogSize: number) {
  const board = new Scoreboard(K);
  for (const c of cases) board.add(rank(c), c.relevant);
  return board.result(catalogSize);
}

function engineScore(engine: ShopEngine, s: CartSplit, blend: CartBlend, catalogSize: number) {
  engine.ease.cartBlend = blend;
  return score((c) => recommend(engine, { strategy: 'bought-together', productIds: c.cart, limit: K, exclude: [] }, s.now).items.map((i) => i.product.id), s.cases, catalogSize);
}

/** Raw co-occurrence counts of the training orders summed over the cart, popularity after. */
function summedCounts(train: readonly OrderLine[]): (c: CartCase) => string[] {
  const orders = new Map<string, string[]>();
  for (const l of train) {
    let items = orders.get(l.invoice);
    if (!items) orders.set(l.invoice, (items = []));
    items.push(l.stockCode);
  }
  const pairs = new Map<string, Map<string, number>>();
  const popularity = new Map<string, number>();
  for (const items of orders.values()) {
    for (const a of items) {
      popularity.set(a, (popularity.get(a) ?? 0) + 1);
      let row = pairs.get(a);
      if (!row) pairs.set(a, (row = new Map()));
      for (const b of items) if (b !== a) row.set(b, (row.get(b) ?? 0) + 1);
    }
  }
  const popular = [...popularity.keys()].sort((a, b) => popularity.get(b)! - popularity.get(a)! || (a < b ? -1 : 1));
  return (c) => {
    const scores = new Map<string, number>();
    for (const a of c.cart) for (const [b, n] of pairs.get(a) ?? []) scores.set(b, (scores.get(b) ?? 0) + n);
    const ranked = [...scores].filter(([id]) => !c.cart.includes(id)).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([id]) => id);
    for (const id of popular) if (ranked.length < K && !c.cart.includes(id) && !ranked.includes(id)) ranked.push(id);
    return ranked.slice(0, K);
  };
}

/** Dense EASE on the training customers (the personalized reference), x·B over the cart. */
function easeOverCart(train: readonly OrderLine[]): (c: CartCase) => string[] {
  const reference = fitReference(train, EASE_LAMBDA)!;
  const n = reference.codes.length;
  return (c) => {
    const scores = new Float64Array(n);
    for (const id of c.cart) {
      const i = reference.index.get(id);
      if (i === undefined) continue;
      for (let j = 0; j < n; j++) scores[j] += reference.b[i * n + j]!;
    }
    return [...scores.keys()].filter((j) => scores[j]! > 0 && !c.cart.includes(reference.codes[j]!)).sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, K).map((j) => reference.codes[j]!);
  };
}

const blendText = (b: CartBlend) => `ease ${b.easeWeight}, pairs ${b.pairWeight}, content ${b.contentWeight}`;

function run(file: string): void {
  const data = loadOnlineRetail(file);
  const products = catalog(data);
  const train = data.lines.filter((l) => l.time < SPLIT_TIME);
  const families: { name: string; validation: CartSplit[]; test: CartSplit }[] = [
    {
      name: 'by time',
      validation: VALIDATION_CUTS.map((cut) => timeSplit(`cut ${new Date(cut).toISOString().slice(0, 10)}`, train, cut, cut + VALIDATION_WINDOW_MS)),
      test: timeSplit('test (train < 2011-10-01)', data.lines, SPLIT_TIME),
    },
  ];
  const random = byOrder(data.lines, 0.75, 42);
  families.push({ name: 'at random', validation: [randomSplit('a quarter of the training orders', random.first, 7)], test: { name: 'test (orders at random)', train: random.first, cases: cartCases(random.second), now: random.first[random.first.length - 1]!.time } });

  const blends: CartBlend[] = [];
  for (const pairWeight of PAIR_WEIGHTS) for (const contentWeight of CONTENT_WEIGHTS) blends.push({ easeWeight: 1, pairWeight, contentWeight });
  blends.push({ easeWeight: 0, pairWeight: 1, contentWeight: 0 }, { easeWeight: 0, pairWeight: 1, contentWeight: 0.3 });
  if (!blends.some((b) => blendText(b) === blendText(DEFAULT_CART_BLEND))) blends.push(DEFAULT_CART_BLEND);

  for (const family of families) {
    const sums = new Float64Array(blends.length);
    for (const s of family.validation) {
      const engine = replayEngine(products, s.train);
      installEase(engine);
      blends.forEach((blend, b) => {
        const result = engineScore(engine, s, blend, products.length);
        sums[b] += result.ndcg / family.validation.length;
        console.log(`  ${family.name} validation ${s.name} (${s.cases.length} carts): ${blendText(blend)} → ${result.ndcg.toFixed(4)}`);
      });
    }
    let best = 0;
    blends.forEach((blend, b) => {
      console.log(`${family.name} validation mean: ${blendText(blend)} → ${sums[b]!.toFixed(4)}`);
      if (sums[b]! > sums[best]!) best = b;
    });
    const chosen = blends[best]!;
    console.log(`${family.name}: chosen on validation ${blendText(chosen)}`);
    const s = family.test;
    const engine = replayEngine(products, s.train);
    installEase(engine);
    const rows: [string, ReturnType<typeof score>][] = [
      ['summed raw counts (reference)', score(summedCounts(s.train), s.cases, products.length)],
      [`dense EASE λ ${EASE_LAMBDA} on customers, x·B (reference)`, score(easeOverCart(s.train), s.cases, products.length)],
      [`engine, default (${blendText(DEFAULT_CART_BLEND)})`, engineScore(engine, s, DEFAULT_CART_BLEND, products.length)],
      [`engine, EASE alone`, engineScore(engine, s, { easeWeight: 1, pairWeight: 0, contentWeight: 0 }, products.length)],
      [`engine, pairs alone`, engineScore(engine, s, { easeWeight: 0, pairWeight: 1, contentWeight: 0 }, products.length)],
      [`engine, chosen (${blendText(chosen)})`, engineScore(engine, s, chosen, products.length)],
    ];
    for (const [method, r] of rows) console.log(`${family.name} ${s.name}, ${r.cases} carts | ${method.padEnd(56)} | nDCG@10 ${r.ndcg.toFixed(4)} | HR@10 ${r.hr.toFixed(4)} | coverage ${r.coverage.toFixed(3)}`);
  }
}

let file: string;
try {
  file = datasetFile();
} catch (error) {
  console.error(`bench:quality-cart: ${(error as Error).message}`);
  process.exit(2);
}
const started = performance.now();
run(file);
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
