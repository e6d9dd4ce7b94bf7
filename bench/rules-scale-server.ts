// The real service for bench/rules.ts's store-sized rows: two shops on one server process, a
// bootstrapped shop of store size filled in process from the synthetic store (BENCH_SCALE_PRODUCTS
// products, BENCH_SCALE_EVENTS events: loading them through HTTP would take longer than the
// measurement) and the demo store (400 products), the other shop whose answers must not wait on it.
// Rate limits are off (every load comes from one address) and it takes no snapshot and runs no
// refit of its own while measured. Prints one ready line with both shops' keys and the ids to ask
// about.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { defaultDemoDir, readDemoProducts } from '../src/demo/demo-files.js';
import { startService } from '../src/service.js';
import { generateKey } from '../src/store/shop-store.js';
import { announceReady, assertNativeUws, stopOnSignalOrOrphan } from './support/ready-line.js';
import { integerSetting } from './support/settings.js';
import { availableByPopularity, fillSyntheticShop } from './support/synthetic-shop.js';
import { spread } from './support/workload-sample.js';

const log = (line: string) => process.stderr.write(`[rules-scale-server] ${line}\n`);

/** What the ready line says about one shop. */
export interface ScaleShop {
  shopId: string;
  publicKey: string;
  secretKey: string;
  products: number;
  productIds: string[];
}

export interface ScaleServerInfo {
  port: number;
  /** The store-sized shop. */
  store: ScaleShop & { events: number; fillSeconds: number };
  /** The demo store: the other shop on the same server. */
  other: ScaleShop;
}

async function main(): Promise<void> {
  assertNativeUws();
  const products = integerSetting('BENCH_SCALE_PRODUCTS', 100_000, 1000, 1_000_000);
  const events = integerSetting('BENCH_SCALE_EVENTS', 1_000_000, 1, 20_000_000);
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_PARENT ?? tmpdir(), 'pairwise-bench-'));
  const shop = { shopId: 'store', publicKey: generateKey('public'), secretKey: generateKey('secret') };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PAIRWISE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PAIRWISE_SERVERS: '1',
    PAIRWISE_DEMO: '1',
    PAIRWISE_SHOP: shop.shopId,
    PAIRWISE_PUBLIC_KEY: shop.publicKey,
    PAIRWISE_SECRET_KEY: shop.secretKey,
    // Every load comes from one address: no rate limits unless the environment asks for them.
    PAIRWISE_RATE_LIMITS: process.env.PAIRWISE_RATE_LIMITS ?? '0',
    // No background work of its own during the measurements: snapshots and refits are not what it measures.
    PAIRWISE_SNAPSHOT_MINUTES: String(24 * 60),
    PAIRWISE_EASE_REFIT_MINUTES: '0',
    PAIRWISE_EASE_REFIT_EVENTS: '0',
  };
  const service = await startService(loadConfig(env), { log });
  stopOnSignalOrOrphan(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  if (service.demoKeys === undefined) throw new Error('the demo store was not seeded');

  const { store, seconds: fillSeconds } = fillSyntheticShop(service, shop.shopId, products, events, log);
  // Available products among the 40,000 most popular, every tenth: every strategy has something.
  const available = availableByPopularity(store);
  const demoProducts = readDemoProducts(defaultDemoDir()) as { id: string }[];
  const info: ScaleServerInfo = {
    port: service.port,
    store: { ...shop, products, productIds: spread(available.slice(0, 40_000), 4000), events, fillSeconds },
    other: { ...service.demoKeys, products: demoProducts.length, productIds: spread(demoProducts.map((p) => p.id), 64) },
  };
  announceReady({ ...info });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
