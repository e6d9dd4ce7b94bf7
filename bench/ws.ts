// WebSocket benchmark of the event stream (GET /api/stream): many `ws` connections streaming msgpack
// `events` ops of 100 events, each acked after its durable commit; next to POST /api/events/batch
// (autocannon, the same 100-event batches) measured in the same run, each as a ratio to a uWS
// hello-world measured just before and after it (see bench/README.md). Loopback only, bounded in time.
//   npm run bench:ws        (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_WS_CONNECTIONS — see bench/README.md)
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAutocannon } from './support/autocannon-run.js';
import { Bracketed, NOISY_PERCENT } from './support/bracketed.js';
import { ChildServer } from './support/child-server.js';
import { batchBodies, EVENTS_BATCH, EVENTS_PER_BATCH, ID_PLACEHOLDER } from './support/http-workload.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { environment, table, writeResults, type Row } from './support/report.js';
import { benchSettings, flag } from './support/settings.js';
import type { ServiceInfo } from './support/workload-sample.js';
import { runWs, type WsLoadResult } from './support/ws-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const messageIds = flag('BENCH_MESSAGE_IDS', true);
const progress = (line: string) => process.stderr.write(`${line}\n`);

function wsConnections(): number {
  const raw = process.env.BENCH_WS_CONNECTIONS ?? '50';
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1000) throw new Error(`BENCH_WS_CONNECTIONS must be an integer from 1 to 1000, got "${raw}"`);
  return value;
}

async function main(): Promise<void> {
  pinSelfToLoadCpu(pinning);
  const { seconds, warmupSeconds, connections } = settings;
  const streams = wsConnections();
  const loadBefore = os.loadavg()[0]!;
  if (loadBefore > 0.5) progress(`warning: load average ${loadBefore.toFixed(2)} before the run: absolute numbers will be low, ratios less so`);
  progress(`bench/ws: ${seconds}s per run, ${streams} WebSocket connections, ${connections} HTTP connections, ${pinning.note}`);

  const baseline = await ChildServer.start('baseline-server', path.join(here, 'baseline-server.js'), {}, pinning);
  let service: ChildServer | undefined;
  try {
    progress('starting the service (seeding the store)…');
    service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), {}, pinning);
    const info = service.info as unknown as ServiceInfo;
    progress(`service: ${info.mode} shop "${info.shopId}", ${info.products} products, ${info.events} events, ready in ${info.setupMs} ms`);
    const headers = { authorization: `Bearer ${info.publicKey}` };
    const bodies = batchBodies(info.sample, 64, messageIds);
    const batches = bodies.map((body) => (JSON.parse(body) as { events: Record<string, unknown>[] }).events);
    const streamUrl = `ws://127.0.0.1:${info.port}/api/stream?key=${encodeURIComponent(info.publicKey)}`;

    const check = await runWs({ url: streamUrl, connections: 1, seconds: 0.2, batches, placeholder: ID_PLACEHOLDER });
    if (check.requests === 0 || check.eventsPerSec === 0 || check.non2xx > 0) throw new Error(`the stream did not ack a batch: ${JSON.stringify(check)}`);

    const bench = new Bracketed(() => runAutocannon({ url: baseline.url, connections, seconds }), progress);
    const batchRequests = bodies.map((body) => ({ method: 'POST' as const, path: EVENTS_BATCH, body, headers: { ...headers, 'content-type': 'application/json' } }));
    const restRun = (secs: number) => () => runAutocannon({ url: service!.url, connections, seconds: secs, headers, requests: batchRequests, idReplacement: messageIds });
    const wsRun = (secs: number) => () => runWs({ url: streamUrl, connections: streams, seconds: secs, batches, placeholder: messageIds ? ID_PLACEHOLDER : undefined });
    if (warmupSeconds > 0) {
      await runAutocannon({ url: baseline.url, connections, seconds: warmupSeconds });
      await restRun(warmupSeconds)();
      await wsRun(warmupSeconds)();
    }

    const rest = await bench.measure('POST /api/events/batch (100 events)', 'autocannon', restRun(seconds));
    rest.note = `${Math.round(rest.requestsPerSec * EVENTS_PER_BATCH).toLocaleString('en-US')} events/s acked; ${connections} connections`;
    let wsResult: WsLoadResult | undefined;
    const ws = await bench.measure('WS /api/stream events op (100 events, msgpack)', 'autocannon', async () => (wsResult = await wsRun(seconds)()));
    ws.note = `${Math.round(wsResult!.eventsPerSec).toLocaleString('en-US')} events/s acked; ${streams} connections, 1 op in flight each` + (ws.note ? `; ${ws.note}` : '');

    const rows: Row[] = [...bench.baselineRows(), ...bench.rows];
    const file = writeResults('ws', {
      benchmark: 'ws',
      finishedAt: new Date().toISOString(),
      settings: { ...settings, wsConnections: streams, messageIds },
      pinning,
      environment: environment(),
      service: { mode: info.mode, shopId: info.shopId, products: info.products, events: info.events, filesystem: info.filesystem, setupMs: info.setupMs },
      workload: { batchBodies: bodies.length, eventsPerBatch: EVENTS_PER_BATCH },
      loadAverage1m: { before: loadBefore, after: os.loadavg()[0] },
      rows,
      baselineRuns: bench.baselines,
    });

    console.log('');
    console.log(table(rows));
    console.log('');
    console.log("req/s = acked batches (REST responses, WebSocket `acks`) per second; p50/p99 = request → ack latency.");
    console.log("ratio = the row's req/s ÷ the mean of the autocannon hello-world runs just before and just after it (same run, same CPUs).");
    const noisy = bench.rows.filter((r) => Math.abs(r.baselineMovedPercent ?? 0) > NOISY_PERCENT).length;
    if (noisy > 0) console.log(`warning: ${noisy} row(s) marked noisy: the baseline moved more than ${NOISY_PERCENT}% across them; rerun before trusting those ratios.`);
    console.log(`1-min load average before the run: ${loadBefore.toFixed(2)}. service: ${info.mode} store, ${info.products} products, ${info.events} events; LMDB on ${info.filesystem ?? 'unknown fs'}. ${pinning.note}.`);
    console.log(`Every batch is one transaction flushed to disk before its ack (group commit across connections)${messageIds ? '; each event has a fresh messageId' : ''}.`);
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
