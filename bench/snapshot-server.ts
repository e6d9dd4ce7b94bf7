// The real service with a store-sized shop for bench/snapshot-pause.ts: a bootstrapped shop whose
// models are filled in process from the synthetic store (BENCH_PRODUCTS products, BENCH_EVENTS
// events: loading millions of events through HTTP would take longer than the measurement), then
// served over HTTP as usual. Driven by signals:
//   SIGUSR2  apply a few more events (so the shop has changed) and take a snapshot, as the
//            scheduler's timer does; prints {"snapshot":{"ms":…,"taken":…}}
//   SIGUSR1  print the event loop's delay since the last SIGUSR1 ({"loop":{"maxMs":…,"p99Ms":…}}) and reset it
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/service.js';
import { generateKey } from '../src/store/shop-store.js';
import { announceReady, assertNativeUws, stopOnSignalOrOrphan } from './support/ready-line.js';
import { integerSetting } from './support/settings.js';
import { availableByPopularity, fillSyntheticShop } from './support/synthetic-shop.js';
import { spread } from './support/workload-sample.js';

const log = (line: string) => process.stderr.write(`[snapshot-server] ${line}\n`);
const print = (value: unknown) => process.stdout.write(JSON.stringify(value) + '\n');

async function main(): Promise<void> {
  assertNativeUws();
  const products = integerSetting('BENCH_PRODUCTS', 100_000, 1, 1_000_000);
  const events = integerSetting('BENCH_EVENTS', 2_000_000, 1, 20_000_000);
  const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_PARENT ?? tmpdir(), 'pairwise-bench-'));
  const shop = { shopId: 'bench', publicKey: generateKey('public'), secretKey: generateKey('secret') };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PAIRWISE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    PAIRWISE_DEMO: '0',
    PAIRWISE_RATE_LIMITS: '0',
    PAIRWISE_SNAPSHOT_MINUTES: String(24 * 60), // only the ones this bench asks for
    PAIRWISE_SHOP: shop.shopId,
    PAIRWISE_PUBLIC_KEY: shop.publicKey,
    PAIRWISE_SECRET_KEY: shop.secretKey,
  };
  const service = await startService(loadConfig(env), { log });
  stopOnSignalOrOrphan(async () => {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const { store, stream } = fillSyntheticShop(service, shop.shopId, products, events, log);
  service.engines.noteApplied(shop.shopId, events); // the log position a snapshot stands for (the events are not in the log: nothing replays them)
  const engine = service.engines.get(shop.shopId);

  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let snapshots = 0;
  process.on('SIGUSR1', () => {
    print({ loop: { maxMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6 } });
    delay.reset();
  });
  process.on('SIGUSR2', () => {
    for (const event of stream.nextChunk(10)) engine.apply(event);
    service.engines.noteApplied(shop.shopId, events + 10 * ++snapshots);
    const t0 = performance.now();
    service.snapshot().then(
      (taken) => print({ snapshot: { ms: performance.now() - t0, taken } }),
      (error: unknown) => log(`snapshot failed: ${String(error)}`),
    );
  });

  const available = availableByPopularity(store);
  announceReady({
    port: service.port,
    shopId: shop.shopId,
    publicKey: shop.publicKey,
    rssMB: Math.round(process.memoryUsage().rss / 2 ** 20),
    productIds: spread(available.slice(0, 2000), 32), // among the 2,000 most popular: every strategy has something
    customerIds: spread(store.customerIds, 32),
  });
}

await main();
