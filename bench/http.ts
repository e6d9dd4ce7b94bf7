// HTTP benchmark of the two storefront hot paths, each as a ratio to a uWS hello-world measured
// just before and just after it in the same run (absolute req/s drift 2-3× between runs on a shared
// machine; support/bracketed.ts):
// GET /api/recommendations (a mix of four kinds, and each kind alone, a 5-product cart's beside a
// product's) and POST /api/events/batch
// (100 events per durable, fsync'd commit). autocannon always; wrk too when installed.
// Servers run pinned to one CPU, the load generators to the other.
//   npm run bench:http        (BENCH_SECONDS, BENCH_CONNECTIONS, … — see bench/README.md)
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAutocannon } from './support/autocannon-run.js';
import { ChildServer } from './support/child-server.js';
import {
  batchBodies,
  EVENTS_BATCH,
  EVENTS_PER_BATCH,
  ID_PLACEHOLDER,
  mixedPaths,
  PER_KIND,
  recommendationPaths,
  type GetKind,
} from './support/http-workload.js';
import type { LoadResult } from './support/load-result.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { Bracketed, NOISY_PERCENT } from './support/bracketed.js';
import { environment, table, writeResults, type Row } from './support/report.js';
import { benchSettings, flag } from './support/settings.js';
import type { ServiceInfo, WorkloadSample } from './support/workload-sample.js';
import { runWrk, wrkAvailable } from './support/wrk-run.js';

interface RecommendationBody {
  products: { strategy: string }[];
  meta: { strategy: string; count: number; fallback: boolean };
}

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const useWrk = wrkAvailable();
const perKind = flag('BENCH_GET_KINDS', true);
const messageIds = flag('BENCH_MESSAGE_IDS', true);
const progress = (line: string) => process.stderr.write(`${line}\n`);

/** One request per path before measuring: the numbers only mean something if the answers are right. */
async function checkRecommendations(base: string, headers: Record<string, string>, sample: WorkloadSample) {
  const kinds: Record<string, { bytes: number; answeredBy: string[] }> = {};
  for (const kind of PER_KIND) {
    const paths = recommendationPaths(kind, sample);
    let bytes = 0;
    const answeredBy = new Set<string>();
    for (const p of paths) {
      const res = await fetch(base + p, { headers });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${text}`);
      const body = JSON.parse(text) as RecommendationBody;
      if (body.meta.count === 0) throw new Error(`GET ${p}: no products`);
      bytes += Buffer.byteLength(text);
      for (const item of body.products) answeredBy.add(item.strategy);
    }
    kinds[kind] = { bytes: Math.round(bytes / paths.length), answeredBy: [...answeredBy] };
  }
  return kinds;
}

async function checkBatch(base: string, headers: Record<string, string>, body: string): Promise<void> {
  const unique = body.replaceAll(ID_PLACEHOLDER, `check-${Date.now()}`);
  const res = await fetch(base + EVENTS_BATCH, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: unique });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST ${EVENTS_BATCH}: ${res.status} ${text}`);
  const outcome = JSON.parse(text) as { accepted: number };
  if (outcome.accepted !== EVENTS_PER_BATCH) throw new Error(`POST ${EVENTS_BATCH} accepted ${outcome.accepted} of ${EVENTS_PER_BATCH}: ${text.slice(0, 300)}`);
}

async function main(): Promise<void> {
  pinSelfToLoadCpu(pinning);
  const { seconds, warmupSeconds, connections } = settings;
  const loadBefore = os.loadavg()[0]!;
  if (loadBefore > 0.5) progress(`warning: load average ${loadBefore.toFixed(2)} before the run: other processes compete for these CPUs; absolute numbers will be low, ratios less so`);
  progress(`bench/http: ${seconds}s per run, ${connections} connections, ${pinning.note}; wrk ${useWrk ? 'found' : 'skipped (not installed or BENCH_WRK=0)'}`);

  const baseline = await ChildServer.start('baseline-server', path.join(here, 'baseline-server.js'), {}, pinning);
  let service: ChildServer | undefined;
  try {
    progress('starting the service (seeding the store)…');
    // BENCH_SERVICE_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof": profile the service under load.
    const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
    service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), {}, pinning, nodeArgs);
    const info = service.info as unknown as ServiceInfo;
    progress(`service: ${info.mode} shop "${info.shopId}", ${info.products} products, ${info.events} events, ready in ${info.setupMs} ms`);
    const headers = { authorization: `Bearer ${info.publicKey}` };
    const kinds = await checkRecommendations(service.url, headers, info.sample);
    const bodies = batchBodies(info.sample, 64, messageIds);
    await checkBatch(service.url, headers, bodies[0]!);

    const ac = (url: string, options: Partial<Parameters<typeof runAutocannon>[0]> = {}, secs = seconds) =>
      () => runAutocannon({ url, connections, seconds: secs, headers, ...options });
    const wrk = (url: string, paths: string[]) => () => runWrk({ url, connections, seconds, headers, paths }, pinning);
    const warm = async (run: () => Promise<LoadResult>) => {
      if (warmupSeconds > 0) await run();
    };
    const bench = new Bracketed((tool) => (tool === 'wrk' ? wrk(baseline.url, ['/']) : ac(baseline.url))(), progress);
    const mix = mixedPaths(info.sample);
    const mixRequests = mix.map((p) => ({ method: 'GET' as const, path: p }));
    await warm(ac(baseline.url, {}, warmupSeconds));
    await warm(ac(service.url, { requests: mixRequests }, warmupSeconds));

    // GET first (the POST runs add events, changing what GET answers from), wrk before autocannon
    // so that the autocannon rows follow each other and share baselines.
    if (useWrk) await bench.measure('GET /api/recommendations (mix of 4)', 'wrk', wrk(service.url, mix));
    await bench.measure('GET /api/recommendations (mix of 4)', 'autocannon', ac(service.url, { requests: mixRequests }));
    if (perKind) {
      for (const kind of PER_KIND as GetKind[]) {
        const requests = recommendationPaths(kind, info.sample).map((p) => ({ method: 'GET' as const, path: p }));
        await bench.measure(`GET /api/recommendations ${kind}`, 'autocannon', ac(service.url, { requests }), `${kinds[kind]!.bytes} B`);
      }
    }

    const batchRequests = bodies.map((body) => ({ method: 'POST' as const, path: EVENTS_BATCH, body, headers: { ...headers, 'content-type': 'application/json' } }));
    const batchRun = (secs: number) => () => runAutocannon({ url: service!.url, connections, seconds: secs, requests: batchRequests, idReplacement: messageIds });
    await warm(batchRun(warmupSeconds));
    const batch = await bench.measure('POST /api/events/batch (100 events)', 'autocannon', batchRun(seconds));
    batch.note = [`${Math.round(batch.requestsPerSec * EVENTS_PER_BATCH).toLocaleString('en-US')} events/s, durable commits`, batch.note].filter(Boolean).join('; ');

    const rows: Row[] = [...bench.baselineRows(), ...bench.rows];
    const file = writeResults('http', {
      benchmark: 'http',
      finishedAt: new Date().toISOString(),
      settings: { ...settings, perKind, messageIds },
      pinning,
      wrk: useWrk,
      environment: environment(),
      service: { mode: info.mode, shopId: info.shopId, products: info.products, events: info.events, filesystem: info.filesystem, setupMs: info.setupMs },
      workload: { mix, kinds, batchBodies: bodies.length, eventsPerBatch: EVENTS_PER_BATCH },
      loadAverage1m: { before: loadBefore, after: os.loadavg()[0] },
      rows,
      baselineRuns: bench.baselines,
    });

    console.log('');
    console.log(table(rows));
    console.log('');
    console.log("ratio = the row's req/s ÷ the mean of the same tool's hello-world runs just before and just after it (same run, same CPUs).");
    const noisy = bench.rows.filter((r) => Math.abs(r.baselineMovedPercent ?? 0) > NOISY_PERCENT).length;
    if (noisy > 0) console.log(`warning: ${noisy} row(s) marked noisy: the baseline moved more than ${NOISY_PERCENT}% across them (a busy machine); rerun before trusting those ratios.`);
    console.log(`1-min load average before the run: ${loadBefore.toFixed(2)} (well above 0 = other processes shared the CPUs; trust ratios over absolute numbers).`);
    console.log(`service: ${info.mode} store, ${info.products} products, ${info.events} events; LMDB on ${info.filesystem ?? 'unknown fs'}. ${pinning.note}.`);
    console.log(`POST batches: every request is one transaction flushed to disk before the 200 (group commit across concurrent requests)${messageIds ? '; each event has a fresh messageId (dedup index written too)' : ''}.`);
    if (!useWrk) console.log('wrk rows skipped: wrk is not installed (apt-get install wrk) or BENCH_WRK=0.');
    console.log(`results: ${path.relative(process.cwd(), file)}`);
  } finally {
    await service?.stop();
    await baseline.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
