// EASE refit at store scale, in process: a synthetic shop of BENCH_EASE_PRODUCTS (5,000) products
// and BENCH_EASE_SHOPPERS (20,000) customers buying 20 products each over a year (skewed popularity). Prints
// the refit's solve and total time, the worker's matrix bytes and the process RSS peak during it,
// and personalized recommend() latency p50/p99 (one request per ms) before the refit (real-time only), while the
// worker solves (the baseline in the same run: the event loop must not notice), and after it (EASE).
// Then the same refit with the shop's tuning (BENCH_EASE_TUNING_SECONDS of budget, 120 by default;
// 0 skips it): the latencies while it tunes and solves against the untuned refit's in the same run
// (bound: p99 within 2×), its time, the process's CPU time and RSS peak, and the tuning's report.
// Usage: npm run build && node dist/bench/ease-refit.js
import { DEFAULT_ENGINE_CONFIG } from '../src/config.js';
import { recommend } from '../src/engine/recommend.js';
import { ShopEngine } from '../src/engine/shop-engine.js';
import { DEFAULT_FIT, refitEase, type RefitResult } from '../src/ingest/ease-refit.js';
import { prng } from './support/prng.js';

const PRODUCTS = Number(process.env.BENCH_EASE_PRODUCTS ?? 5000);
const SHOPPERS = Number(process.env.BENCH_EASE_SHOPPERS ?? 20_000);
const PER_SHOPPER = 20;
const TUNING_MS = Number(process.env.BENCH_EASE_TUNING_SECONDS ?? 120) * 1000;
const T0 = Date.UTC(2024, 0, 1);
const STEP_MS = (365 * 86_400_000) / PER_SHOPPER;
const NOW = T0 + PER_SHOPPER * STEP_MS;

function shop(): ShopEngine {
  const engine = new ShopEngine(DEFAULT_ENGINE_CONFIG);
  for (let p = 0; p < PRODUCTS; p++) {
    const id = `p${p}`;
    engine.upsertProduct({ id, platform: 'shopify', title: id, handle: id, image: null, price: '1.00', compareAtPrice: null, vendor: null, productType: null, tags: [], collections: [], available: true, updatedAt: 0 });
  }
  const random = prng(7);
  for (let s = 0; s < SHOPPERS; s++) {
    for (let k = 0; k < PER_SHOPPER; k++) {
      const product = Math.floor(random() ** 2 * PRODUCTS);
      // each shopper's purchases spread over a year (the tuner holds out the shop's newest ones)
      engine.apply({ type: 'purchase', productId: `p${product}`, sessionId: `s${s}`, customerId: `c${s}`, timestamp: T0 + k * STEP_MS + s });
    }
  }
  return engine;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** recommend() latencies (ms) of personalized for random customers, one request per ms timer (a steady load, not a saturating one), until `until` says stop. */
async function latencies(engine: ShopEngine, until: () => boolean): Promise<number[]> {
  const random = prng(11);
  const out: number[] = [];
  const now = NOW;
  while (!until()) {
    const started = performance.now();
    recommend(engine, { strategy: 'personalized', customerId: `c${Math.floor(random() * SHOPPERS)}`, limit: 8, exclude: [] }, now);
    out.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return out.sort((a, b) => a - b);
}

function row(label: string, sorted: number[]): string {
  return `${label.padEnd(28)} n=${String(sorted.length).padStart(6)}  p50 ${percentile(sorted, 0.5).toFixed(3)} ms  p99 ${percentile(sorted, 0.99).toFixed(3)} ms  max ${sorted[sorted.length - 1]!.toFixed(3)} ms`;
}

const engine = shop();
const deadline = (ms: number) => {
  const end = performance.now() + ms;
  return () => performance.now() >= end;
};
console.log(row('before (real-time only)', await latencies(engine, deadline(3000))));

/** One refit under the steady request load: its result, the latencies meanwhile, the process's CPU ms and RSS. */
async function measured(label: string, refit: () => Promise<RefitResult | undefined>) {
  let done = false;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  const rssBefore = process.memoryUsage().rss;
  const cpu = process.cpuUsage();
  const running = refit().finally(() => (done = true));
  const during = await latencies(engine, () => done);
  clearInterval(sampler);
  const { user, system } = process.cpuUsage(cpu);
  const result = (await running)!;
  console.log(row(label, during));
  console.log(
    `  ${result.items} items, ${result.shoppers} shoppers; worker ${(result.solveMs / 1000).toFixed(1)} s, total ${(result.totalMs / 1000).toFixed(1)} s; process CPU ${((user + system) / 1e6).toFixed(1)} s; ` +
      `worker matrix ${(result.matrixBytes / 2 ** 20).toFixed(0)} MiB; process RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(peakRss / 2 ** 20).toFixed(0)} MiB during`,
  );
  return { during, result };
}

const plain = await measured('during the refit', () => refitEase(engine));
console.log(row('after (EASE + real-time)', await latencies(engine, deadline(3000))));
if (TUNING_MS > 0) {
  const tuned = await measured('during a tuned refit', () => refitEase(engine, { ...DEFAULT_FIT, tuningBudgetMs: TUNING_MS }, undefined, undefined, NOW));
  const report = tuned.result.tuning!;
  const p99 = (sorted: number[]) => percentile(sorted, 0.99);
  console.log(
    `  tuning: ${report.decision} on ${report.shoppers} shoppers, ${report.settingsTried} settings, λ ${report.lambdasTried.join('/')}, ${(report.ms / 1000).toFixed(1)} s in the worker; ` +
      `nDCG@10 chosen ${report.scores.chosen?.toFixed(4)} default ${report.scores.default?.toFixed(4)} popularity ${report.scores.popularity?.toFixed(4)}`,
  );
  console.log(`p99 during the tuned refit / during the plain one: ${(p99(tuned.during) / p99(plain.during)).toFixed(2)} (bound 2)`);
}
