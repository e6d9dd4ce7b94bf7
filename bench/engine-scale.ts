// The engine at store scale, in process (no HTTP): a synthetic store of BENCH_PRODUCTS products
// (100k) and BENCH_EVENTS events (10M) over 60 days. Measures the ingest rate through
// ShopEngine.apply per segment, resident memory after the catalog, half the events and all of
// them (after a forced GC), and GET latency per strategy — recommend() alone and the full hot
// path (parse + recommend + render). Baselines measured in the same run: JSON.parse of a
// 100-event batch (ingest, at every segment boundary) and JSON.stringify of an 8-product
// response (GET, before and after the GET rows).
// Usage: npm run bench:engine   (BENCH_PRODUCTS=10000 BENCH_EVENTS=500000 for a quick run)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { parseRecommendationQuery } from '../src/api/recommendation-query.js';
import { DEFAULT_ENGINE_CONFIG } from '../src/config.js';
import type { Product } from '../src/engine/product.js';
import { recommend, type Recommendation } from '../src/engine/recommend.js';
import { ShopEngine } from '../src/engine/shop-engine.js';
import { recommendationJson } from '../src/app/render.js';
import { replay } from '../src/ingest/replay.js';
import { ShopEngines } from '../src/engine/shop-engines.js';
import { CatalogStore } from '../src/store/catalog-store.js';
import { openDatabases, snapshotPartRange } from '../src/store/database.js';
import { LmdbShopLog } from '../src/store/shop-log.js';
import { SnapshotStore } from '../src/store/snapshot-store.js';
import { workloads } from './support/engine-requests.js';
import { timeCalls, type LatencySummary } from './support/latency.js';
import { cpuTicks, stealShare } from './support/cpu-steal.js';
import { environment, writeResults } from './support/report.js';
import { integerSetting } from './support/settings.js';
import { SyntheticEventStream } from './support/synthetic-events.js';
import { SyntheticStore } from './support/synthetic-store.js';

const settings = {
  products: integerSetting('BENCH_PRODUCTS', 100_000, 1_000, 1_000_000),
  events: integerSetting('BENCH_EVENTS', 10_000_000, 10_000, 50_000_000),
  /** Requests per GET row and pass (the engine pass and the full pass each get their own). */
  requests: integerSetting('BENCH_REQUESTS', 20_000, 100, 1_000_000),
  /** Cap on the measured seconds of each pass of a GET row. */
  rowSeconds: integerSetting('BENCH_ROW_SECONDS', 5, 1, 120),
  seed: integerSetting('BENCH_SEED', 1, 0, 2 ** 31),
  /** 0: stop after the ingest and memory figures (for profiling the ingest). */
  get: integerSetting('BENCH_GET', 1, 0, 1) === 1,
  days: 60,
  chunk: 50_000,
};
const segment = settings.events >= 5_000_000 ? 1_000_000 : Math.max(1, Math.round(settings.events / 10));
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run node with --expose-gc (npm run bench:engine does)');
const log = (line: string) => process.stderr.write(line + '\n');
const MB = 1024 * 1024;
/** A share as a percentage, or n/a where it is not known. */
const percent = (share: number | null): string => (share === null ? 'n/a' : `${(100 * share).toFixed(1)} %`);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

// --- memory ---------------------------------------------------------------------------------

interface MemoryPoint {
  label: string;
  afterGc: boolean;
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
}

/** How long a memory point waits after its collections before reading RSS, in ms. */
const SETTLE_MS = 500;

function memory(label: string, collect: boolean): MemoryPoint {
  if (collect) {
    gc!();
    gc!(); // a second pass frees what the first one's finalizers released
    // V8's background threads return the freed pages to the system after the collection: read
    // straight away, RSS still held 45-66 MB of them at 5M and 10M events (one run, 2026-11-24).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
  }
  const m = process.memoryUsage();
  return { label, afterGc: collect, rssMB: m.rss / MB, heapUsedMB: m.heapUsed / MB, heapTotalMB: m.heapTotal / MB, externalMB: m.external / MB };
}

/** The heap limit node picks on this machine without --max-old-space-size (what `npm start` gets). */
function defaultHeapLimitMB(): number | undefined {
  const out = spawnSync(process.execPath, ['-p', 'require("v8").getHeapStatistics().heap_size_limit'], { encoding: 'utf8' });
  return out.status === 0 ? Number(out.stdout.trim()) / MB : undefined;
}

// --- baselines ------------------------------------------------------------------------------

/** Events/s of JSON.parse of 100-event batch bodies, the wire form the ingest pipeline starts from. */
function parseBaseline(body: string, calls: number): number {
  const summary = timeCalls(calls, 2, Math.min(100, calls), () => JSON.parse(body));
  return 100 / (summary.mean / 1e6);
}

function batchBody(store: SyntheticStore): string {
  const events = new SyntheticEventStream(store).nextChunk(100).map((e) => ({ ...e, timestamp: new Date(e.timestamp).toISOString() }));
  return JSON.stringify({ events });
}

/** JSON.stringify of an 8-product response object: the per-request cost the pre-serialized hot path avoids (it takes uWS from ~0.9 to ~0.4 of a hello-world). */
function stringifyBaseline(products: readonly Product[]): LatencySummary {
  const response = {
    products: products.slice(0, 8).map((p, i) => ({
      id: `gid://shopify/Product/${p.id}`,
      title: p.title,
      handle: p.handle,
      image: p.image,
      price: p.price,
      compareAtPrice: p.compareAtPrice,
      vendor: p.vendor,
      score: 12.3456 / (i + 1),
      strategy: 'bought-together',
    })),
    meta: { strategy: 'bought-together', modelLevel: 2, count: 8, fallback: false },
  };
  let bytes = 0;
  const summary = timeCalls(settings.requests, settings.rowSeconds, 2000, () => {
    bytes += JSON.stringify(response).length;
  });
  if (bytes === 0) throw new Error('unreachable');
  return summary;
}

// --- catalog and ingest -----------------------------------------------------------------------

interface Segment {
  from: number;
  to: number;
  seconds: number;
  eventsPerSec: number;
  /** Events per second of the process's CPU time (all its threads) while applying them: what the host's steal does not change. */
  eventsPerCpuSec: number;
  /** The share of the machine's CPU time its host took over the segment (null: not known). */
  steal: number | null;
  /** JSON.parse baseline (events/s) at the segment's start and end. */
  parseBefore: number;
  parseAfter: number;
  ratio: number;
  rssMB: number;
  heapUsedMB: number;
}

const started = performance.now();
/** Taken before the run: git commit and dirty state of the code measured (the lead may commit meanwhile). */
const machine = environment();
const store = new SyntheticStore({ products: settings.products, events: settings.events, days: settings.days, seed: settings.seed });
const engine = new ShopEngine(DEFAULT_ENGINE_CONFIG);
const memoryPoints: MemoryPoint[] = [memory('start (generator built)', true)];

const catalogStart = performance.now();
for (const product of store.products) engine.upsertProduct(product);
const catalogSeconds = (performance.now() - catalogStart) / 1000;
// What the service's ContentWarmer does in the background after a catalog load.
const contentStart = performance.now();
engine.precomputeContent(Infinity);
const contentSeconds = (performance.now() - contentStart) / 1000;
memoryPoints.push(memory('after catalog load', true));
log(`catalog: ${fmt(store.products.length)} products in ${catalogSeconds.toFixed(2)} s, content neighbours precomputed in ${contentSeconds.toFixed(2)} s`);

const body = batchBody(store);
const stream = new SyntheticEventStream(store);
const segments: Segment[] = [];
const half = Math.floor(settings.events / 2);
let applySeconds = 0;
let generateSeconds = 0;
let segmentSeconds = 0;
let segmentCpuSeconds = 0;
let segmentTicks = cpuTicks();
let segmentStart = 0;
let parseAtStart = parseBaseline(body, 1000);
let sizesAtHalf: Record<string, number> = {};
while (stream.produced < settings.events) {
  const boundary = Math.min(settings.events, segmentStart + segment, stream.produced < half ? half : Infinity);
  const g0 = performance.now();
  const chunk = stream.nextChunk(Math.min(settings.chunk, boundary - stream.produced));
  const a0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < chunk.length; i++) engine.apply(chunk[i]!);
  const cpu = process.cpuUsage(cpu0);
  const a1 = performance.now();
  segmentCpuSeconds += (cpu.user + cpu.system) / 1e6;
  generateSeconds += (a0 - g0) / 1000;
  applySeconds += (a1 - a0) / 1000;
  segmentSeconds += (a1 - a0) / 1000;
  if (stream.produced === segmentStart + segment || stream.produced === settings.events) {
    const m = process.memoryUsage();
    const parseAtEnd = parseBaseline(body, 1000);
    const events = stream.produced - segmentStart;
    const eventsPerSec = events / segmentSeconds;
    const ratio = eventsPerSec / ((parseAtStart + parseAtEnd) / 2);
    const eventsPerCpuSec = events / segmentCpuSeconds;
    const ticks = cpuTicks();
    const steal = stealShare(segmentTicks, ticks) ?? null;
    segments.push({ from: segmentStart, to: stream.produced, seconds: segmentSeconds, eventsPerSec, eventsPerCpuSec, steal, parseBefore: parseAtStart, parseAfter: parseAtEnd, ratio, rssMB: m.rss / MB, heapUsedMB: m.heapUsed / MB });
    log(`ingest ${fmt(stream.produced)}: ${fmt(eventsPerSec)} events/s (ratio ${ratio.toFixed(3)}; ${fmt(eventsPerCpuSec)} per CPU second, steal ${percent(steal)}), rss ${fmt(m.rss / MB)} MB, ${fmt((performance.now() - started) / 1000)} s elapsed`);
    segmentStart = stream.produced;
    segmentSeconds = 0;
    segmentCpuSeconds = 0;
    segmentTicks = ticks;
    parseAtStart = parseAtEnd;
  }
  if (stream.produced === half) {
    memoryPoints.push(memory(`after ${fmt(half)} events`, true));
    sizesAtHalf = modelSizes();
  }
}
memoryPoints.push(memory(`after ${fmt(settings.events)} events (no GC)`, false));
memoryPoints.push(memory(`after ${fmt(settings.events)} events`, true));
const ingestEventsPerSec = settings.events / applySeconds;
const parseMean = segments.reduce((sum, s) => sum + (s.parseBefore + s.parseAfter) / 2, 0) / segments.length;

/** What the engine holds, to explain the memory figures. */
// (a function declaration: hoisted, so the ingest loop above calls it at the half-way point)
function modelSizes(): Record<string, number> {
  const models = { baskets: engine.baskets, shopperItems: engine.shopperItems, coViews: engine.coViews };
  const out: Record<string, number> = {
    denseIds: engine.catalog.size,
    catalogProducts: engine.catalog.productCount,
    shoppers: engine.shoppers.size,
  };
  for (const [name, model] of Object.entries(models)) {
    let entries = 0;
    let max = 0;
    for (let id = 0; id < engine.catalog.size; id++) {
      const size = model.pairs.size(id);
      entries += size;
      max = Math.max(max, size);
    }
    out[`${name}NeighbourEntries`] = entries;
    out[`${name}MaxPerProduct`] = max;
    out[`${name}PoolMB`] = Math.round(model.pairs.usedBytes / MB);
    out[`${name}FreeMB`] = Math.round(model.pairs.freeBytes / MB);
  }
  return out;
}
const sizes = modelSizes();

// --- GET latency ----------------------------------------------------------------------------

interface GetRow {
  label: string;
  engine: LatencySummary;
  full?: LatencySummary;
  /** Full-path p50 (engine p50 for engine-only rows) ÷ the stringify baseline's p50. */
  ratio: number;
  meanItems: number;
  /** Share of returned items produced by the primary strategy (the rest is backfill). */
  ownShare: number;
  meanBytes: number;
  note?: string;
}

function parsed(queries: readonly string[]) {
  return queries.map((q) => {
    const result = parseRecommendationQuery(q);
    if (!result.ok) throw new Error(`${q}: ${result.error.message}`);
    return result.query;
  });
}

function runGets(now: number): { rows: GetRow[]; before: LatencySummary; after: LatencySummary } {
  const before = stringifyBaseline(store.products);
  const rows: Omit<GetRow, 'ratio'>[] = [];

  /**
   * recommend() alone over pre-parsed requests, then parse + recommend + render from raw query
   * strings: two disjoint request lists of the same workload, so that the full pass does not
   * find the engine pass's per-product caches already filled for exactly its products.
   */
  const measure = (label: string, queries: readonly string[], between?: () => void): Omit<GetRow, 'ratio'> => {
    const split = Math.floor(queries.length / 2);
    const requests = parsed(queries.slice(0, split));
    const raw = queries.slice(split);
    let items = 0;
    let own = 0;
    let answers = 0;
    const tally = (r: Recommendation) => {
      answers++;
      items += r.items.length;
      for (const item of r.items) if (item.strategy === r.strategy) own++;
    };
    const warmup = Math.min(200, Math.floor(split / 10));
    const engineSummary = timeCalls(requests.length, settings.rowSeconds, warmup, (i) => tally(recommend(engine, requests[i]!, now)), between);
    let bytes = 0;
    let bodies = 0;
    const fullSummary = timeCalls(
      raw.length,
      settings.rowSeconds,
      warmup,
      (i) => {
        const result = parseRecommendationQuery(raw[i]!);
        if (!result.ok) throw new Error('unreachable: the workload only has valid queries');
        bytes += recommendationJson(recommend(engine, result.query, now)).length;
        bodies++;
      },
      between,
    );
    log(`${label}: engine p50 ${fmt(engineSummary.p50, 1)} µs p99 ${fmt(engineSummary.p99, 1)} µs (${engineSummary.count}); full p50 ${fmt(fullSummary.p50, 1)} µs (${fullSummary.count})`);
    return { label, engine: engineSummary, full: fullSummary, meanItems: items / answers, ownShare: items === 0 ? 0 : own / items, meanBytes: bytes / bodies };
  };

  const loads = workloads(store, stream, settings.requests * 2, settings.seed + 7);
  for (const load of loads) rows.push(measure(load.label, load.queries));

  // A catalog change that adds a product to the sale collection drops its cached member order
  // (and every product's cached content neighbours): the next request pays for rebuilding them.
  {
    const big = store.bigCollection;
    const template = store.products[0]!;
    const request = parsed([`strategy=collection-popular&collectionId=${big.id}`])[0]!;
    const joins = (i: number) => engine.upsertProduct({ ...template, id: String(8_000_000_000_000 + i), collections: [big.id] });
    const summary = timeCalls(50, settings.rowSeconds * 4, 0, () => recommend(engine, request, now), joins);
    rows.push({ label: 'collection-popular · sale, after a product joins it', engine: summary, meanItems: 8, ownShare: 1, meanBytes: 0, note: 'one upsert (untimed) before each request; engine only' });
    log(`collection-popular after a join: p50 ${fmt(summary.p50, 1)} µs`);
  }

  // The storefront mix while events keep arriving: 10 more events applied (untimed) before each
  // request, so cached rankings are invalidated as they are in service.
  {
    const auto = loads.find((l) => l.label.startsWith('auto'))!;
    let applied = 0;
    const row = measure('auto · storefront mix, 10 new events before each request', auto.queries, () => {
      for (const e of stream.nextChunk(10)) engine.apply(e);
      applied += 10;
    });
    row.note = `${fmt(applied)} events applied (untimed) during this row`;
    rows.push(row);
  }

  const after = stringifyBaseline(store.products);
  const p50 = (before.p50 + after.p50) / 2;
  return { before, after, rows: rows.map((r) => ({ ...r, ratio: (r.full ?? r.engine).p50 / p50 })) };
}

// --- restart ----------------------------------------------------------------------------------

interface RestartFigures {
  snapshotMB: number;
  /** The engine's state taken a step per turn and copied in slices, as the SnapshotScheduler does it: the longest turn of the event loop meanwhile, and the whole copy. */
  longestTurnMs: number;
  copySeconds: number;
  /** The state taken and copied plus the durable LMDB write, as the SnapshotScheduler does it. */
  writeSeconds: number;
  /** replay() at start: snapshot read and restore, the catalog from LMDB, no events after the snapshot. */
  replaySeconds: number;
  /** The restored engine answers every sampled request exactly as the original. */
  identical: boolean;
}

/** A restart from a snapshot through a real LMDB, timed as the service does it (replay at start). */
async function measureRestart(): Promise<RestartFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pairwise-bench-restart-'));
  try {
    const dbs = openDatabases(dir);
    const catalogStore = new CatalogStore(dbs);
    for (let i = 0; i < store.products.length; i += 10_000) await catalogStore.put('bench', store.products.slice(i, i + 10_000));
    const snapshots = new SnapshotStore(dbs);
    const w0 = performance.now();
    // The longest turn of the event loop while the snapshot is taken (a ticker between the slices).
    let longestTurnMs = 0;
    let ticking = true;
    let lastTick = performance.now();
    const tick = () => {
      const t = performance.now();
      longestTurnMs = Math.max(longestTurnMs, t - lastTick);
      lastTick = t;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const state = await engine.snapshotInTurns(snapshots.pause);
    const copy = await snapshots.copy({ position: 0, takenAt: 0, state }); // this LMDB's log is empty
    const copySeconds = (performance.now() - w0) / 1000;
    ticking = false;
    await snapshots.write('bench', copy);
    const writeSeconds = (performance.now() - w0) / 1000;
    let snapshotBytes = dbs.snapshots.getBinary('bench')?.length ?? 0;
    for (const { value } of dbs.snapshotParts.getRange(snapshotPartRange('bench'))) snapshotBytes += value.byteLength;
    const snapshotMB = snapshotBytes / MB;
    const engines = new ShopEngines(DEFAULT_ENGINE_CONFIG);
    const r0 = performance.now();
    const stats = replay(catalogStore, new LmdbShopLog(dbs), snapshots, engines);
    const replaySeconds = (performance.now() - r0) / 1000;
    if (stats.snapshots !== 1) throw new Error('the snapshot was not used');
    const restored = engines.get('bench');
    const now = stream.lastTimestamp + 60_000;
    let identical = true;
    for (const { queries } of workloads(store, stream, 200, settings.seed + 7)) {
      for (const q of parsed(queries)) {
        const a = recommendationJson(recommend(engine, q, now));
        const b = recommendationJson(recommend(restored, q, now));
        if (a !== b && identical) log(`restart: first difference\n  ${JSON.stringify(q)}\n  before ${a}\n  after  ${b}`);
        if (a !== b) identical = false;
      }
    }
    await snapshots.close();
    await dbs.root.close();
    log(`snapshot: copied in ${copySeconds.toFixed(2)} s, longest event-loop turn meanwhile ${longestTurnMs.toFixed(1)} ms`);
    log(`restart: snapshot ${fmt(snapshotMB)} MB written in ${writeSeconds.toFixed(2)} s, replayed in ${replaySeconds.toFixed(2)} s, answers identical: ${identical}`);
    return { snapshotMB, longestTurnMs, copySeconds, writeSeconds, replaySeconds, identical };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Before the GET rows: they change the catalog (a product joins a collection), which LMDB does not see.
const restartFigures = await measureRestart();
gc();
const now = stream.lastTimestamp + 60_000;
const gets = settings.get ? runGets(now) : undefined;
if (gets !== undefined) memoryPoints.push(memory('after the GET rows', true));

// --- report ---------------------------------------------------------------------------------

function table(header: string[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

const heapLimit = defaultHeapLimitMB();
const point = (label: string) => memoryPoints.find((p) => p.label === label)!;
const catalog = point('after catalog load');
const firstHalf = point(`after ${fmt(half)} events`);
const all = point(`after ${fmt(settings.events)} events`);
/** Memory the engine holds: the JavaScript heap in use plus typed arrays (RSS adds the allocator's free memory, which moves from run to run). */
const held = (p: MemoryPoint) => p.heapUsedMB + p.externalMB;
const growthFirst = { rssMB: firstHalf.rssMB - catalog.rssMB, heapMB: firstHalf.heapUsedMB - catalog.heapUsedMB, heldMB: held(firstHalf) - held(catalog) };
const growthSecond = { rssMB: all.rssMB - firstHalf.rssMB, heapMB: all.heapUsedMB - firstHalf.heapUsedMB, heldMB: held(all) - held(firstHalf) };
const millions = (n: number) => `${fmt(n / 1e6, n % 1e6 === 0 ? 0 : 2)}M`;

console.log(
  `\nSynthetic store: ${fmt(settings.products)} products, ${store.collections.length} collections (largest ${fmt(store.bigCollection.size)}), ` +
    `${fmt(store.customerIds.length)} customers; ${fmt(settings.events)} events over ${settings.days} days, ${fmt(stream.sessions)} sessions, ${fmt(stream.orders)} orders`,
);
console.log(`event mix: ${Object.entries(stream.typeCounts).map(([t, c]) => `${t} ${((100 * c) / stream.produced).toFixed(1)}%`).join(', ')}`);
console.log(`\nIngest through ShopEngine.apply (event generation excluded: ${fmt(generateSeconds, 1)} s); catalog load ${fmt(settings.products / catalogSeconds)} products/s, content neighbours of all products precomputed in ${fmt(contentSeconds, 1)} s (the service does this in the background)`);
console.log(
  table(
    ['events', 'events/s', 'µs/event', 'ratio', 'per CPU s', 'steal', 'rss MB', 'heap MB'],
    [
      ...segments.map((s) => [`${millions(s.from)}-${millions(s.to)}`, fmt(s.eventsPerSec), fmt(1e6 / s.eventsPerSec, 1), s.ratio.toFixed(3), fmt(s.eventsPerCpuSec), percent(s.steal), fmt(s.rssMB), fmt(s.heapUsedMB)]),
      [`total ${millions(settings.events)}`, fmt(ingestEventsPerSec), fmt(1e6 / ingestEventsPerSec, 1), (ingestEventsPerSec / parseMean).toFixed(3), '', '', '', ''],
      ['baseline: JSON.parse 100-event batch', fmt(parseMean), fmt(1e6 / parseMean, 2), '1.000', '', '', '', ''],
    ],
  ),
);
console.log(
  `(ratio = events/s ÷ events/s of JSON.parse of the same 100-event batch, measured at the segment's start and end; per CPU s = events per second of the process's CPU time while applying them; ` +
    `steal = the share of the machine's CPU time its host took during the segment (a shared VM's wall-clock rates fall with it); rss/heap at the segment's end, no GC)`,
);

console.log('\nMemory');
console.log(table(['point', 'rss MB', 'heap used MB', 'heap total MB', 'external MB'], memoryPoints.map((p) => [p.label + (p.afterGc ? ' (GC)' : ''), fmt(p.rssMB), fmt(p.heapUsedMB), fmt(p.heapTotalMB), fmt(p.externalMB)])));
console.log(
  `boundedness (after GC): events 0-${millions(half)} +${fmt(growthFirst.rssMB)} MB rss / +${fmt(growthFirst.heldMB)} MB held / +${fmt(growthFirst.heapMB)} MB heap; ` +
    `${millions(half)}-${millions(settings.events)} +${fmt(growthSecond.rssMB)} MB rss / +${fmt(growthSecond.heldMB)} MB held / +${fmt(growthSecond.heapMB)} MB heap ` +
    `(second/first: rss ${(growthSecond.rssMB / growthFirst.rssMB).toFixed(2)}, held ${(growthSecond.heldMB / growthFirst.heldMB).toFixed(2)}, heap ${(growthSecond.heapMB / growthFirst.heapMB).toFixed(2)}; held = heap used + external)`,
);
console.log(`heap limit: node's default here (npm start) ${heapLimit === undefined ? '?' : fmt(heapLimit)} MB; this run ${fmt(v8.getHeapStatistics().heap_size_limit / MB)} MB`);
// npm start sets it too: with glibc's default (a trim threshold that rises to 64 MB as big buffers
// are freed) the second half's RSS growth is mostly free memory the allocator keeps.
console.log(`allocator: MALLOC_TRIM_THRESHOLD_=${process.env.MALLOC_TRIM_THRESHOLD_ ?? "unset (glibc's dynamic default)"}`);
console.log(`models after ${millions(half)}: ${Object.entries(sizesAtHalf).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);
console.log(`models after ${millions(settings.events)}: ${Object.entries(sizes).map(([k, v]) => `${k} ${fmt(v)}`).join(', ')}`);

if (gets !== undefined) {
  const p50 = (gets.before.p50 + gets.after.p50) / 2;
  console.log(`\nGET latency in process, µs (engine = recommend(); full = parseRecommendationQuery + recommend + recommendationJson)`);
  console.log(
    table(
      ['request', 'n', 'eng p50', 'eng p99', 'eng max', 'full p50', 'full p99', 'full max', 'ratio', 'items', 'own', 'bytes'],
      [
        ...gets.rows.map((r) => [
          r.label,
          fmt(r.engine.count),
          fmt(r.engine.p50, 1),
          fmt(r.engine.p99, 1),
          fmt(r.engine.max),
          r.full ? fmt(r.full.p50, 1) : '-',
          r.full ? fmt(r.full.p99, 1) : '-',
          r.full ? fmt(r.full.max) : '-',
          r.ratio.toFixed(2),
          r.meanItems.toFixed(1),
          `${Math.round(100 * r.ownShare)}%`,
          r.meanBytes === 0 ? '-' : fmt(r.meanBytes),
        ]),
        ['baseline: JSON.stringify 8-product response', fmt(gets.before.count + gets.after.count), '', '', '', fmt(p50, 1), fmt(Math.max(gets.before.p99, gets.after.p99), 1), fmt(Math.max(gets.before.max, gets.after.max)), '1.00', '', '', ''],
      ],
    ),
  );
  console.log(`(ratio = full p50 ÷ stringify p50 (before ${fmt(gets.before.p50, 2)} / after ${fmt(gets.after.p50, 2)} µs); own = items from the requested strategy, the rest is backfill)`);
  for (const r of gets.rows) if (r.note) console.log(`  ${r.label}: ${r.note}`);
}

console.log(
  `\nRestart (replay() from a real LMDB: snapshot read and restore, ${fmt(settings.products)} products upserted): ${restartFigures.replaySeconds.toFixed(2)} s; ` +
    `snapshot ${fmt(restartFigures.snapshotMB)} MB, written (snapshot() + durable commit) in ${restartFigures.writeSeconds.toFixed(2)} s, the longest event-loop turn while it was copied ${restartFigures.longestTurnMs.toFixed(1)} ms; answers identical after restore: ${restartFigures.identical}`,
);

const file = writeResults('engine-scale', {
  restart: restartFigures,
  settings: { ...settings, segment },
  environment: { ...machine, execArgv: process.execArgv, defaultHeapLimitMB: heapLimit, totalSeconds: (performance.now() - started) / 1000 },
  store: { products: settings.products, collections: store.collections, customers: store.customerIds.length, sessions: stream.sessions, orders: stream.orders, orderSizes: stream.orderSizes, typeCounts: stream.typeCounts },
  ingest: { catalogSeconds, contentSeconds, applySeconds, generateSeconds, eventsPerSec: ingestEventsPerSec, parseBaselineEventsPerSec: parseMean, segments },
  memory: { points: memoryPoints, growthFirstHalf: growthFirst, growthSecondHalf: growthSecond, modelsAtHalf: sizesAtHalf, models: sizes },
  get: gets === undefined ? undefined : { now, stringifyBaseline: { before: gets.before, after: gets.after }, rows: gets.rows },
});
console.log(`\nresults: ${file} (${fmt((performance.now() - started) / 1000)} s)`);
