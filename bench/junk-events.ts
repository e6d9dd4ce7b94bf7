// A flood of events naming invented products, as anyone holding a shop's public key can send
// (issue 9.3): BENCH_JUNK_EVENTS (1M) events, each with its own product id and session, through
// POST /api/events/batch in batches of 100. Measures the service's resident memory and the GET p99
// for real products (autocannon) before and after, in the same run: the "after / before" ratios are
// the result. Bars: RSS growth ≤ 100 MB, p99 after ≤ 2× before.
// BENCH_JUNK_CONTROL=1 sends as many events naming real products instead: what storing them costs anyway.
//   npm run bench:junk        (BENCH_JUNK_EVENTS, BENCH_JUNK_CONCURRENCY, BENCH_JUNK_CONTROL, BENCH_SECONDS, BENCH_CONNECTIONS)
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAutocannon } from './support/autocannon-run.js';
import { ChildServer } from './support/child-server.js';
import { EVENTS_BATCH, EVENTS_PER_BATCH, recommendationPaths } from './support/http-workload.js';
import type { LoadResult } from './support/load-result.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { environment, table, writeResults, type Row } from './support/report.js';
import { benchSettings, flag, integerSetting } from './support/settings.js';
import type { ServiceInfo } from './support/workload-sample.js';

const RSS_BUDGET_MB = 100;
const P99_BUDGET_RATIO = 2;

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const progress = (line: string) => process.stderr.write(`${line}\n`);

interface Memory {
  /** /proc/<pid>/status of the service, MB: all resident, anonymous (heap, typed arrays), file-backed (LMDB's map). */
  rssMb: number;
  anonMb: number;
  fileMb: number;
  /** From its GET /metrics. */
  heapUsedMb: number;
  pendingEvents: number;
  /** The LMDB file (event log and all): what file-backed pages can map at most. */
  lmdbFileMb: number;
}

const MB = 1024 * 1024;

async function memoryOf(service: ChildServer, info: ServiceInfo): Promise<Memory> {
  const status = readFileSync(`/proc/${service.child.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  const metrics = await (await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${info.secretKey}` } })).text();
  const metric = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(metrics)?.[1] ?? NaN);
  return {
    rssMb: kb('VmRSS'),
    anonMb: kb('RssAnon'),
    fileMb: kb('RssFile'),
    heapUsedMb: metric('nodejs_heap_used_bytes') / MB,
    pendingEvents: metric('pairwise_pending_events'),
    // Allocated blocks, not the apparent size (LMDB's file is sparse up to its map size).
    lmdbFileMb: (statSync(path.join(info.dataDir, 'db', 'data.mdb')).blocks * 512) / MB,
  };
}

/**
 * Batch `b` of the flood: 100 events, each naming a product id and a session never seen before; in
 * the control (`realIds`), the sample's real products and 1,000 sessions instead, as many events.
 */
function junkBatch(run: string, b: number, realIds: readonly string[] | undefined): string {
  const events: string[] = [];
  for (let i = 0; i < EVENTS_PER_BATCH; i++) {
    const n = b * EVENTS_PER_BATCH + i;
    const ids = realIds === undefined ? `"productId":"junk-${run}-${n}","sessionId":"junk-s-${n}"` : `"productId":"${realIds[n % realIds.length]}","sessionId":"real-s-${n % 1000}"`;
    events.push(`{"type":"${n % 4 === 3 ? 'add_to_cart' : 'view'}",${ids}}`);
  }
  return `{"events":[${events.join(',')}]}`;
}

/** Sends `batches` junk batches, `concurrency` in flight; resolves with the events per second. */
async function flood(url: string, publicKey: string, batches: number, concurrency: number, realIds: readonly string[] | undefined): Promise<number> {
  const run = Date.now().toString(36);
  const started = performance.now();
  let next = 0;
  let reported = 0;
  const worker = async () => {
    for (let b = next++; b < batches; b = next++) {
      const res = await fetch(url + EVENTS_BATCH, { method: 'POST', headers: { authorization: `Bearer ${publicKey}`, 'content-type': 'application/json' }, body: junkBatch(run, b, realIds) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`POST ${EVENTS_BATCH}: ${res.status} ${text.slice(0, 300)}`);
      if ((JSON.parse(text) as { accepted: number }).accepted !== EVENTS_PER_BATCH) throw new Error(`POST ${EVENTS_BATCH}: not all accepted: ${text.slice(0, 300)}`);
      if (b - reported >= batches / 10) {
        reported = b;
        progress(`    ${(b * EVENTS_PER_BATCH).toLocaleString('en-US')} events, ${Math.round((b * EVENTS_PER_BATCH) / ((performance.now() - started) / 1000))} events/s`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (batches * EVENTS_PER_BATCH) / ((performance.now() - started) / 1000);
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function main(): Promise<void> {
  pinSelfToLoadCpu(pinning);
  const { seconds, warmupSeconds, connections } = settings;
  const events = integerSetting('BENCH_JUNK_EVENTS', 1_000_000, EVENTS_PER_BATCH, 20_000_000);
  const concurrency = integerSetting('BENCH_JUNK_CONCURRENCY', 8, 1, 256);
  // The control: the same number of events naming real products, to tell the log's pages from the junk's cost.
  const control = flag('BENCH_JUNK_CONTROL', false);
  const batches = Math.ceil(events / EVENTS_PER_BATCH);
  const loadBefore = os.loadavg()[0]!;
  progress(`bench/junk-events: ${batches * EVENTS_PER_BATCH} junk events, ${concurrency} batches in flight; GET runs of ${seconds}s, ${connections} connections; ${pinning.note}`);

  progress('starting the service (bootstrap shop: catalog and real events through the API)…');
  const service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), { BENCH_SERVICE_MODE: 'bootstrap' }, pinning);
  try {
    const info = service.info as unknown as ServiceInfo;
    progress(`service: shop "${info.shopId}", ${info.products} products, ${info.events} events, ready in ${info.setupMs} ms`);
    const headers = { authorization: `Bearer ${info.publicKey}` };
    const requests = recommendationPaths('product', info.sample).map((p) => ({ method: 'GET' as const, path: p }));
    for (const { path: p } of requests) {
      const res = await fetch(service.url + p, { headers });
      const body = (await res.json()) as { meta?: { count: number } };
      if (res.status !== 200 || !body.meta || body.meta.count === 0) throw new Error(`GET ${p}: ${res.status}, no products`);
    }
    const getRun = (secs: number) => runAutocannon({ url: service.url, connections, seconds: secs, headers, requests });
    const measureGet = async (label: string): Promise<Row> => {
      if (warmupSeconds > 0) await getRun(warmupSeconds);
      progress(`  ${label}…`);
      const result: LoadResult = await getRun(seconds);
      progress(`    ${Math.round(result.requestsPerSec)} req/s, p50 ${fmt(result.latencyP50Ms, 2)} ms, p99 ${fmt(result.latencyP99Ms, 2)} ms`);
      return { label, ...result };
    };

    const getBefore = await measureGet('GET /api/recommendations?productId (real products), before the flood');
    await settle(1000);
    const memoryBefore = await memoryOf(service, info);
    progress(`  RSS before: ${fmt(memoryBefore.rssMb)} MB (anon ${fmt(memoryBefore.anonMb)}, file ${fmt(memoryBefore.fileMb)}), heap ${fmt(memoryBefore.heapUsedMb)} MB`);

    progress(`  flooding: ${batches * EVENTS_PER_BATCH} events with ${control ? 'real (control run)' : 'invented'} product ids…`);
    const floodRate = await flood(service.url, info.publicKey, batches, concurrency, control ? info.sample.productIds : undefined);
    progress(`    ${Math.round(floodRate)} events/s`);
    await settle(2000);
    const memoryAfter = await memoryOf(service, info);
    progress(`  RSS after: ${fmt(memoryAfter.rssMb)} MB (anon ${fmt(memoryAfter.anonMb)}, file ${fmt(memoryAfter.fileMb)}), heap ${fmt(memoryAfter.heapUsedMb)} MB, ${memoryAfter.pendingEvents} events held`);
    const getAfter = await measureGet('GET /api/recommendations?productId (real products), after the flood');

    const rssGrowth = memoryAfter.rssMb - memoryBefore.rssMb;
    const anonGrowth = memoryAfter.anonMb - memoryBefore.anonMb;
    const p99Ratio = getAfter.latencyP99Ms / Math.max(getBefore.latencyP99Ms, 1);
    getBefore.ratio = 1;
    getAfter.ratio = getAfter.requestsPerSec / getBefore.requestsPerSec;
    getAfter.note = `p99 ${fmt(p99Ratio, 2)}× before`;
    const rows = [getBefore, getAfter];
    const file = writeResults('junk-events', {
      benchmark: 'junk-events',
      finishedAt: new Date().toISOString(),
      settings: { ...settings, events: batches * EVENTS_PER_BATCH, concurrency, control },
      pinning,
      environment: environment(),
      service: { shopId: info.shopId, products: info.products, events: info.events, filesystem: info.filesystem },
      loadAverage1m: { before: loadBefore, after: os.loadavg()[0] },
      flood: { events: batches * EVENTS_PER_BATCH, eventsPerSec: floodRate },
      memory: { before: memoryBefore, after: memoryAfter, rssGrowthMb: rssGrowth },
      rows,
      verdict: { rssGrowthWithinBudget: rssGrowth <= RSS_BUDGET_MB, anonymousGrowthWithinBudget: anonGrowth <= RSS_BUDGET_MB, p99WithinBudget: p99Ratio <= P99_BUDGET_RATIO },
    });

    console.log('');
    console.log(table(rows));
    console.log('');
    const named = control ? `the sample's ${info.sample.productIds.length} real products (control run, 1,000 sessions)` : `${batches * EVENTS_PER_BATCH} invented products`;
    console.log(`flood: ${batches * EVENTS_PER_BATCH} events naming ${named} (public key, 100 per batch, ${concurrency} in flight): ${Math.round(floodRate)} events/s, each stored durably.`);
    const verdict = (growth: number) => `bar ${RSS_BUDGET_MB} MB: ${growth <= RSS_BUDGET_MB ? 'ok' : 'OVER'}`;
    const signed = (n: number) => `${n >= 0 ? '+' : ''}${fmt(n)} MB`;
    console.log(`service RSS: ${fmt(memoryBefore.rssMb)} MB before, ${fmt(memoryAfter.rssMb)} MB after: ${signed(rssGrowth)} (${verdict(rssGrowth)}), of which`);
    console.log(`  anonymous, the process's own memory (models, JS heap, buffers): ${fmt(memoryBefore.anonMb)} → ${fmt(memoryAfter.anonMb)} MB: ${signed(anonGrowth)} (${verdict(anonGrowth)}); JS heap ${fmt(memoryBefore.heapUsedMb)} → ${fmt(memoryAfter.heapUsedMb)} MB; events held for unknown products: ${memoryAfter.pendingEvents};`);
    console.log(`  file-backed, LMDB pages mapped into the process (clean page cache the kernel reclaims; any 1M stored events map as much): ${fmt(memoryBefore.fileMb)} → ${fmt(memoryAfter.fileMb)} MB: ${signed(memoryAfter.fileMb - memoryBefore.fileMb)}, as the LMDB file grew ${fmt(memoryBefore.lmdbFileMb)} → ${fmt(memoryAfter.lmdbFileMb)} MB storing the events.`);
    console.log(`GET p99 for real products: ${fmt(getBefore.latencyP99Ms, 2)} ms before, ${fmt(getAfter.latencyP99Ms, 2)} ms after: ${fmt(p99Ratio, 2)}× (budget ${P99_BUDGET_RATIO}×: ${p99Ratio <= P99_BUDGET_RATIO ? 'ok' : 'OVER'}; autocannon reports whole ms, so the ratio uses at least 1 ms before).`);
    console.log(`1-min load average before the run: ${loadBefore.toFixed(2)}. ${pinning.note}.`);
    console.log(`results: ${path.relative(process.cwd(), file)}`);
  } finally {
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
