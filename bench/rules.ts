// HTTP benchmark of answers under merchandising rules: GET /api/recommendations (a mix of four
// kinds, then each kind alone) with 20 enabled rules on the shop and a filter on every request,
// each row a ratio to a uWS hello-world measured just before and just after it in the same run
// (support/bracketed.ts), with wrk (autocannon when wrk is missing). The same mix without rules
// or filter is measured first, for comparison. Servers pinned to one CPU, the load generator to
// the other. Then the store-sized rows (support/rules-scale.ts): a 100k-product store next to
// another shop on one server, with the 504-character relative expression as a request's filter,
// in 100 rules and in live subscriptions, as latency ratios to the same run's plain GET and to
// the other shop's GET alone.
//   npm run bench:rules        (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_RULES_SCALE — see bench/README.md)
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAutocannon } from './support/autocannon-run.js';
import { ChildServer } from './support/child-server.js';
import { GET_KINDS, mixedPaths, recommendationPaths, type GetKind } from './support/http-workload.js';
import type { BaselineTool, LoadResult } from './support/load-result.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { Bracketed, NOISY_PERCENT } from './support/bracketed.js';
import { environment, table, writeResults, type Row } from './support/report.js';
import { measureAtScale, RELATIVE_EXPRESSION, scaleTable, type ScaleRun } from './support/rules-scale.js';
import { benchSettings, flag } from './support/settings.js';
import type { ServiceInfo, WorkloadSample } from './support/workload-sample.js';
import { runWrk, wrkAvailable } from './support/wrk-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const tool: BaselineTool = wrkAvailable() ? 'wrk' : 'autocannon';
const progress = (line: string) => process.stderr.write(`${line}\n`);

/** On every request: selects most of the catalog, so answers stay full, and is evaluated on every answer computed. */
export const REQUEST_FILTER = 'NOT tag:clearance AND price < 1000';

/** Twenty enabled rules of every kind; 16 match every request, 4 match none (their checks still run). */
export function benchRules(sample: WorkloadSample): { id: string; body: Record<string, unknown> }[] {
  const rules: { id: string; body: Record<string, unknown> }[] = [];
  const add = (body: Record<string, unknown>) => rules.push({ id: `bench-${String(rules.length + 1).padStart(2, '0')}`, body });
  for (let i = 0; i < 6; i++) add({ then: { hide: `tag:bench-hidden-${i}` } });
  add({ then: { boost: [{ filter: 'vendor:"Dotty Lane"', factor: 2 }] } });
  add({ then: { boost: [{ filter: 'vendor:"Little Rocket Co."', factor: 0.5 }] } });
  add({ then: { boost: [{ filter: 'price < 5', factor: 1.5 }] } });
  add({ then: { diversity: { by: 'vendor', max: 3 } } });
  for (let i = 0; i < 3; i++) add({ then: { pin: [{ productId: sample.productIds[i]!, position: 2 * i + 2 }] } });
  add({ when: { strategies: ['similar'] }, then: { hide: 'vendor:"Dotty Lane"' } });
  add({ when: { widgetIds: ['never-asked'] }, then: { filter: 'price > 100' } });
  add({ when: { collectionIds: ['no-such-collection'] }, then: { hide: 'available:true' } });
  add({ enabled: true, from: '2000-01-01T00:00:00Z', until: '2001-01-01T00:00:00Z', then: { hide: 'available:true' } });
  for (let i = 0; i < 3; i++) add({ when: { context: 'price > 0' }, then: { filter: 'available:true' } });
  return rules;
}

async function putRules(base: string, secretKey: string, sample: WorkloadSample): Promise<number> {
  const rules = benchRules(sample);
  for (const { id, body } of rules) {
    const res = await fetch(`${base}/api/rules/${id}`, { method: 'PUT', headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`PUT /api/rules/${id}: ${res.status} ${await res.text()}`);
  }
  return rules.length;
}

/** One request per path: every answer must be a 200 with products (and, with rules, pinned ones). */
async function check(base: string, headers: Record<string, string>, paths: readonly string[], pinned: boolean): Promise<void> {
  for (const p of paths) {
    const res = await fetch(base + p, { headers });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${p}: ${res.status} ${text}`);
    const body = JSON.parse(text) as { products: { ruleId?: string }[]; meta: { count: number } };
    if (body.meta.count === 0) throw new Error(`GET ${p}: no products`);
    if (pinned && !body.products.some((item) => item.ruleId !== undefined)) throw new Error(`GET ${p}: no pinned item`);
  }
}

const withFilter = (paths: readonly string[]) => paths.map((p) => `${p}&filters=${encodeURIComponent(REQUEST_FILTER)}`);

async function main(): Promise<void> {
  pinSelfToLoadCpu(pinning);
  const { seconds, warmupSeconds, connections } = settings;
  const loadBefore = os.loadavg()[0]!;
  progress(`bench/rules: ${seconds}s per run, ${connections} connections, ${tool}, ${pinning.note}`);
  const baseline = await ChildServer.start('baseline-server', path.join(here, 'baseline-server.js'), {}, pinning);
  let service: ChildServer | undefined;
  try {
    service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), {}, pinning);
    const info = service.info as unknown as ServiceInfo;
    progress(`service: ${info.mode} shop "${info.shopId}", ${info.products} products, ${info.events} events`);
    const headers = { authorization: `Bearer ${info.publicKey}` };
    const run = (url: string, paths: readonly string[], secs = seconds) => (): Promise<LoadResult> =>
      tool === 'wrk'
        ? runWrk({ url, connections, seconds: secs, headers, paths }, pinning)
        : runAutocannon({ url, connections, seconds: secs, headers, requests: paths.map((p) => ({ method: 'GET' as const, path: p })) });
    const bench = new Bracketed(() => run(baseline.url, ['/'])(), progress);
    const mix = mixedPaths(info.sample);
    if (warmupSeconds > 0) {
      await run(baseline.url, ['/'], warmupSeconds)();
      await run(service.url, mix, warmupSeconds)();
    }
    await check(service.url, headers, mix, false);
    await bench.measure('GET mix of 4, no rules, no filter', tool, run(service.url, mix));

    const count = await putRules(service.url, info.secretKey, info.sample);
    const filtered = withFilter(mix);
    await check(service.url, headers, filtered, true);
    if (warmupSeconds > 0) await run(service.url, filtered, warmupSeconds)();
    await bench.measure(`GET mix of 4, ${count} rules + filter`, tool, run(service.url, filtered));
    for (const kind of GET_KINDS as GetKind[]) {
      await bench.measure(`GET ${kind}, ${count} rules + filter`, tool, run(service.url, withFilter(recommendationPaths(kind, info.sample))));
    }

    const rows: Row[] = [...bench.baselineRows(), ...bench.rows];
    await service.stop();
    service = undefined;
    let scale: ScaleRun | undefined;
    if (flag('BENCH_RULES_SCALE', true)) scale = await measureAtScale(pinning, seconds, progress);
    const file = writeResults('rules', {
      benchmark: 'rules',
      finishedAt: new Date().toISOString(),
      settings,
      tool,
      pinning,
      environment: environment(),
      service: { mode: info.mode, products: info.products, events: info.events },
      rules: benchRules(info.sample),
      filter: REQUEST_FILTER,
      loadAverage1m: { before: loadBefore, after: os.loadavg()[0] },
      rows,
      baselineRuns: bench.baselines,
      ...(scale === undefined ? {} : { scale: { ...scale, expression: RELATIVE_EXPRESSION } }),
    });
    console.log('');
    console.log(table(rows));
    console.log('');
    console.log(`ratio = the row's req/s ÷ the mean of the ${tool} hello-world runs just before and just after it (same run, same CPUs). Target with rules + filter: ≥ 0.4.`);
    const noisy = bench.rows.filter((r) => Math.abs(r.baselineMovedPercent ?? 0) > NOISY_PERCENT).length;
    if (noisy > 0) console.log(`warning: ${noisy} row(s) marked noisy: the baseline moved more than ${NOISY_PERCENT}% across them; rerun before trusting those ratios.`);
    console.log(`1-min load average before the run: ${loadBefore.toFixed(2)}. service: ${info.mode} store, ${info.products} products. ${pinning.note}.`);
    if (scale !== undefined) {
      console.log('');
      console.log(`At store size: ${scale.products.toLocaleString('en-US')} products, ${scale.events.toLocaleString('en-US')} events, and the demo store as the other shop, on one server process.`);
      console.log(scaleTable(scale.rows));
      console.log('');
      console.log('store rows: one GET after another, each asking something new (no answer-cache hit); ratio = p50 ÷ the plain GET\'s p50. other-shop rows: GETs sent at a steady rate (latency from when each was due) in alternating quiet and busy windows, the attack in the busy ones; ratio = the busy windows\' p99 ÷ the quiet ones\'. Read tails next to the load average: other work on the machine shows up in them.');
    }
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
