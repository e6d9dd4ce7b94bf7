// EASE refit at store scale, in process: a synthetic shop of BENCH_EASE_PRODUCTS (5,000) products
// and BENCH_EASE_SHOPPERS (20,000) customers buying 20 products each (skewed popularity). Prints
// the refit's solve and total time, the worker's matrix bytes and the process RSS peak during it,
// and personalized recommend() latency p50/p99 (one request per ms) before the refit (real-time only), while the
// worker solves (the baseline in the same run: the event loop must not notice), and after it (EASE).
// Usage: npm run build && node dist/bench/ease-refit.js
import { DEFAULT_ENGINE_CONFIG } from '../src/config.js';
import { recommend } from '../src/engine/recommend.js';
import { ShopEngine } from '../src/engine/shop-engine.js';
import { refitEase } from '../src/ingest/ease-refit.js';
import { prng } from './support/prng.js';

const PRODUCTS = Number(process.env.BENCH_EASE_PRODUCTS ?? 5000);
const SHOPPERS = Number(process.env.BENCH_EASE_SHOPPERS ?? 20_000);
const PER_SHOPPER = 20;
const T0 = Date.UTC(2024, 0, 1);

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
      engine.apply({ type: 'purchase', productId: `p${product}`, sessionId: `s${s}`, customerId: `c${s}`, timestamp: T0 + s * 1000 + k });
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
  const now = T0 + SHOPPERS * 1000;
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
let done = false;
let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
const rssBefore = process.memoryUsage().rss;
const refit = refitEase(engine).finally(() => (done = true));
const during = await latencies(engine, () => done);
clearInterval(sampler);
const result = (await refit)!;
console.log(row('during the refit', during));
console.log(row('after (EASE + real-time)', await latencies(engine, deadline(3000))));
console.log(
  `refit: ${result.items} items, ${result.shoppers} shoppers; solve ${(result.solveMs / 1000).toFixed(1)} s, total ${(result.totalMs / 1000).toFixed(1)} s; ` +
    `worker matrix ${(result.matrixBytes / 2 ** 20).toFixed(0)} MiB; process RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(peakRss / 2 ** 20).toFixed(0)} MiB during`,
);
