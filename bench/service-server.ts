// The real Pairwise service as a benchmark target: its own (pinned) process, a temp data dir, and
// either the demo store (BENCH_SERVICE_MODE=demo, the default: data/demo/, 400 products, ~87k events)
// or a bootstrapped shop filled with a generated catalog and events through the public API
// (BENCH_SERVICE_MODE=bootstrap). Prints one ready line with the port, keys and a workload sample.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { defaultDemoDir, readDemoEvents, readDemoProducts } from '../src/demo/demo-files.js';
import { startService } from '../src/service.js';
import { generateKey } from '../src/store/shop-store.js';
import { announceReady, assertNativeUws, stopOnSignalOrOrphan } from './support/ready-line.js';
import { flag, integerSetting } from './support/settings.js';
import { prng, spread, type ServiceInfo, type WorkloadSample } from './support/workload-sample.js';

const SAMPLE_SIZE = 32;
const log = (line: string) => process.stderr.write(`[service] ${line}\n`);

interface Target {
  shopId: string;
  publicKey: string;
  secretKey: string;
  sample: WorkloadSample;
}

/** Demo mode: the service seeds data/demo/ itself; the sample comes from the same files. */
function demoSample(): WorkloadSample {
  const dir = defaultDemoDir();
  const products = readDemoProducts(dir) as { id: string; collections?: string[] }[];
  const views = new Map<string, number>();
  for (const row of readDemoEvents(dir)) {
    if (row.type === 'view' || row.type === 'click') views.set(row.sessionId, (views.get(row.sessionId) ?? 0) + 1);
  }
  const busiest = [...views].sort((a, b) => b[1] - a[1]).map(([session]) => session);
  const collections = [...new Set(products.flatMap((p) => p.collections ?? []))];
  return { productIds: spread(products.map((p) => p.id), SAMPLE_SIZE), collectionIds: collections, sessionIds: busiest.slice(0, SAMPLE_SIZE) };
}

async function call(url: string, key: string, method: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
}

/** Bootstrap mode: a generated catalog and skewed event history, sent through the HTTP API. */
async function fillBootstrapShop(base: string, shop: Omit<Target, 'sample'>): Promise<WorkloadSample> {
  const productCount = integerSetting('BENCH_PRODUCTS', 400, 10, 5000);
  const collectionCount = integerSetting('BENCH_COLLECTIONS', 12, 1, 200);
  const eventCount = integerSetting('BENCH_SEED_EVENTS', 20_000, 0, 200_000);
  const random = prng(42);
  const products = Array.from({ length: productCount }, (_, i) => {
    const first = String(501 + (i % collectionCount));
    const second = String(501 + Math.floor(random() * collectionCount));
    return {
      id: String(10_001 + i),
      title: `Bench product ${i + 1}`,
      price: (1 + random() * 99).toFixed(2),
      vendor: `Vendor ${i % 17}`,
      image: `/images/${10_001 + i}.svg`,
      collections: first === second ? [first] : [first, second],
      tags: ['bench'],
    };
  });
  for (let i = 0; i < products.length; i += 1000) await call(`${base}/api/products`, shop.secretKey, 'PUT', { products: products.slice(i, i + 1000) });

  const sessions = Array.from({ length: 2000 }, (_, i) => `s_bench_${i}`);
  const types = ['view', 'view', 'view', 'view', 'view', 'view', 'click', 'click', 'add_to_cart', 'purchase'];
  const batches: unknown[][] = [];
  for (let n = 0; n < eventCount; n += 100) {
    batches.push(
      Array.from({ length: Math.min(100, eventCount - n) }, () => ({
        type: types[Math.floor(random() * types.length)],
        productId: products[Math.floor(productCount * random() ** 2)]!.id, // skewed: low ids are popular
        sessionId: sessions[Math.floor(random() * sessions.length)],
      })),
    );
  }
  for (let i = 0; i < batches.length; i += 8) {
    await Promise.all(batches.slice(i, i + 8).map((events) => call(`${base}/api/events/batch`, shop.publicKey, 'POST', { events })));
  }
  return {
    productIds: spread(products.map((p) => p.id), SAMPLE_SIZE),
    collectionIds: Array.from({ length: collectionCount }, (_, i) => String(501 + i)),
    sessionIds: spread(sessions, SAMPLE_SIZE),
  };
}

function filesystemOf(dir: string): string | undefined {
  const result = spawnSync('stat', ['-f', '-c', '%T', dir], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

async function main(): Promise<void> {
  assertNativeUws();
  const mode = process.env.BENCH_SERVICE_MODE ?? 'demo';
  if (mode !== 'demo' && mode !== 'bootstrap') throw new Error('BENCH_SERVICE_MODE must be demo or bootstrap');
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_PARENT ?? tmpdir(), 'pairwise-bench-'));
  const bootstrapShop = { shopId: 'bench', publicKey: generateKey('public'), secretKey: generateKey('secret') };
  const env: NodeJS.ProcessEnv = { ...process.env, PAIRWISE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' };
  // Benchmarks measure throughput through one key from one address: no rate limits and no daily
  // storefront budget (a long run would spend it) unless asked for.
  env.PAIRWISE_RATE_LIMITS ??= '0';
  env.PAIRWISE_STOREFRONT_EVENTS_PER_DAY ??= '0';
  env.PAIRWISE_STOREFRONT_MB_PER_DAY ??= '0';
  // One process, in this one (startService): its rates are not shared out over others.
  env.PAIRWISE_SERVERS = '1';
  if (mode === 'demo') {
    env.PAIRWISE_DEMO = '1';
  } else {
    Object.assign(env, { PAIRWISE_DEMO: '0', PAIRWISE_SHOP: bootstrapShop.shopId, PAIRWISE_PUBLIC_KEY: bootstrapShop.publicKey, PAIRWISE_SECRET_KEY: bootstrapShop.secretKey });
  }

  const started = performance.now();
  const starting = startService(loadConfig(env), { log });
  // A stop during startup waits for it: the data dir is never removed under an open LMDB.
  stopOnSignalOrOrphan(async () => {
    const running = await starting.catch(() => undefined);
    await running?.stop();
    if (!flag('BENCH_KEEP_DATA', false)) rmSync(dataDir, { recursive: true, force: true });
  });
  const service = await starting;
  const base = `http://127.0.0.1:${service.port}`;

  let target: Target;
  if (mode === 'demo') {
    if (service.demoKeys === undefined) throw new Error('the demo store was not seeded');
    target = { ...service.demoKeys, sample: demoSample() };
  } else {
    target = { ...bootstrapShop, sample: await fillBootstrapShop(base, bootstrapShop) };
  }
  const engine = service.engines.get(target.shopId);
  const info: ServiceInfo = {
    port: service.port,
    mode,
    dataDir,
    filesystem: filesystemOf(dataDir),
    shopId: target.shopId,
    publicKey: target.publicKey,
    secretKey: target.secretKey,
    products: engine.catalog.productCount,
    events: engine.eventCount,
    setupMs: Math.round(performance.now() - started),
    sample: target.sample,
  };
  announceReady({ ...info });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
