// The log past one machine (PAIRWISE_NATS), in one run on loopback: (a) durable ingest through
// POST /api/events/batch (100 events per request, secret key, a fixed number of requests in flight)
// against the LMDB log of one node (the baseline, measured before and after), then a 3-server NATS
// cluster with 3 Pairwise nodes on an R3 stream and on an R1 stream (the load spread over the
// nodes): events/s and ack p99, each as a ratio to the baseline; (b) replication lag while events
// are written to node 1: from node 1's acknowledgement of a write to node 3's /metrics holding its
// position (materialized), and applying it (what answers reflect); (c) once the writes stop, every
// strategy's answer on the three nodes, identical or not.
//   npm run bench:replicated   (BENCH_SECONDS, BENCH_INGEST_CONNECTIONS, … — see bench/README.md)
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { runAutocannon } from './support/autocannon-run.js';
import { EVENTS_BATCH, EVENTS_PER_BATCH, ID_PLACEHOLDER } from './support/http-workload.js';
import type { LoadResult } from './support/load-result.js';
import { NatsCluster, natsServerAvailable } from './support/nats-cluster.js';
import { cpuOver, PairwiseNode, type BenchShop } from './support/pairwise-node.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { prng } from './support/prng.js';
import { environment, writeResults } from './support/report.js';
import { benchSettings, integerSetting } from './support/settings.js';
import { runWrk, wrkAvailable } from './support/wrk-run.js';
import { generateKey } from '../src/store/shop-store.js';

const shop: BenchShop = { shopId: 'bench', publicKey: generateKey('public'), secretKey: generateKey('secret') };
const { seconds, warmupSeconds } = benchSettings();
/** Batch requests in flight, spread evenly over the nodes of a target. */
const CONNECTIONS = integerSetting('BENCH_INGEST_CONNECTIONS', 24, 3, 600);
const LAG_SECONDS = integerSetting('BENCH_LAG_SECONDS', 8, 1, 120);
const PRODUCTS = integerSetting('BENCH_PRODUCTS', 400, 20, 5000);
const COLLECTIONS = 12;
const pinning = detectPinning();
const useWrk = wrkAvailable();
const progress = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const auth = { authorization: `Bearer ${shop.secretKey}` };
const postHeaders = { ...auth, 'content-type': 'application/json' };

interface Workload {
  products: { id: string; title: string; price: string; vendor: string; collections: string[] }[];
  /** 100-event batch bodies; every `[<id>]` becomes a per-request id (message ids, order ids). */
  bodies: string[];
  /** A busy product, its collection, a busy session and customer of the bodies: what (c) asks about. */
  productId: string;
  collectionId: string;
  sessionId: string;
  customerId: string;
}

/** A catalog and batches of views, clicks, add_to_carts and orders (30 % of sessions a customer's), skewed toward low product ids. */
function workload(): Workload {
  const random = prng(11);
  const products = Array.from({ length: PRODUCTS }, (_, i) => ({
    id: String(i + 1),
    title: `Bench product ${i + 1}`,
    price: (1 + random() * 99).toFixed(2),
    vendor: `Vendor ${i % 17}`,
    collections: [`c${i % COLLECTIONS}`],
  }));
  const pick = () => products[Math.floor(PRODUCTS * random() ** 2)]!.id;
  const sessionCount = new Map<string, number>();
  const customerCount = new Map<string, number>();
  const bodies = Array.from({ length: 64 }, () => {
    const events: Record<string, unknown>[] = [];
    while (events.length < EVENTS_PER_BATCH) {
      const session = Math.floor(2000 * random() ** 2);
      const customerId = session % 3 === 0 ? `cust${session}` : undefined;
      const who = { sessionId: `s${session}`, ...(customerId === undefined ? {} : { customerId }) };
      const r = random();
      const items = r < 0.1 ? Math.min(EVENTS_PER_BATCH - events.length, 2 + Math.floor(random() * 3)) : 1;
      const order = `o${ID_PLACEHOLDER}-${events.length}`;
      for (let k = 0; k < items; k++) {
        const type = items > 1 ? 'purchase' : r < 0.7 ? 'view' : r < 0.85 ? 'click' : 'add_to_cart';
        events.push({ type, productId: pick(), ...who, messageId: `${ID_PLACEHOLDER}-${events.length}`, ...(type === 'purchase' ? { metadata: { orderId: order } } : {}) });
        sessionCount.set(who.sessionId, (sessionCount.get(who.sessionId) ?? 0) + 1);
        if (customerId !== undefined) customerCount.set(customerId, (customerCount.get(customerId) ?? 0) + 1);
      }
    }
    return JSON.stringify({ events });
  });
  const busiest = (counts: Map<string, number>) => [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  return { products, bodies, productId: '1', collectionId: products[0]!.collections[0]!, sessionId: busiest(sessionCount), customerId: busiest(customerCount) };
}

async function call(url: string, method: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method, headers: postHeaders, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The catalog through `node`, then one batch checked fully accepted: a run never measures errors. */
async function prepare(node: PairwiseNode, load: Workload): Promise<void> {
  for (let i = 0; i < load.products.length; i += 1000) await call(`${node.url}/api/products`, 'PUT', { products: load.products.slice(i, i + 1000) });
  const body = JSON.parse(load.bodies[0]!.replaceAll(ID_PLACEHOLDER, `check-${node.name}`)) as unknown;
  const outcome = await call(node.url + EVENTS_BATCH, 'POST', body);
  if (outcome.accepted !== EVENTS_PER_BATCH) throw new Error(`${node.name}: a batch was accepted ${String(outcome.accepted)} of ${EVENTS_PER_BATCH}: ${JSON.stringify(outcome).slice(0, 300)}`);
}

interface Ingest {
  eventsPerSec: number;
  p50Ms: number;
  /** The highest of the nodes' ack p99s (each node's load generator measures its own). */
  p99Ms: number;
  non2xx: number;
  errors: number;
  perNode: LoadResult[];
  /** CPU seconds per 1,000 events acknowledged, by process group (the Pairwise nodes, the nats-servers). */
  cpuPerThousand?: Record<string, number>;
}

/** ingest(), with the CPU time each group of processes spent on it per 1,000 events. */
async function ingestWithCpu(groups: Record<string, readonly ChildProcess[]>, ...args: Parameters<typeof ingest>): Promise<Ingest> {
  const { result, cpu } = await cpuOver(groups, () => ingest(...args));
  const events = (result.eventsPerSec * args[2]) / 1000;
  return { ...result, cpuPerThousand: Object.fromEntries(Object.entries(cpu).map(([name, seconds]) => [name, seconds / events])) };
}

/** Batches from CONNECTIONS requests in flight, spread evenly over `nodes`, for `runSeconds`. */
async function ingest(nodes: readonly PairwiseNode[], load: Workload, runSeconds: number, tag: string, connections = CONNECTIONS): Promise<Ingest> {
  const share = Math.max(1, Math.round(connections / nodes.length));
  const runs = nodes.map((node, i) =>
    useWrk
      ? runWrk({ url: node.url, connections: share, seconds: runSeconds, headers: postHeaders, paths: [EVENTS_BATCH], bodies: load.bodies, idTag: `${tag}-${i}` }, pinning)
      : runAutocannon({ url: node.url + EVENTS_BATCH, connections: share, seconds: runSeconds, headers: postHeaders, requests: load.bodies.map((body) => ({ method: 'POST', body })), idReplacement: true }),
  );
  const perNode = await Promise.all(runs);
  return {
    eventsPerSec: perNode.reduce((sum, r) => sum + r.requestsPerSec, 0) * EVENTS_PER_BATCH,
    p50Ms: Math.max(...perNode.map((r) => r.latencyP50Ms)),
    p99Ms: Math.max(...perNode.map((r) => r.latencyP99Ms)),
    non2xx: perNode.reduce((sum, r) => sum + r.non2xx, 0),
    errors: perNode.reduce((sum, r) => sum + r.errors, 0),
    perNode,
  };
}

interface Lag {
  /** ms from node 1's ack to node 3's log holding the write (materialized by its follower). */
  materialized: number[];
  /** ms from node 1's ack to node 3's models having applied it (what its answers reflect). */
  applied: number[];
  /** Probes node 3 already held at its first poll (their lag is at most that poll's round trip). */
  alreadyThere: number;
  /** Round trips of the polls (ms): the resolution of the figures above. */
  polls: number[];
  /** The probes node 3 did not hold at the first poll: their lag, how many polls, the longest poll (ms). */
  late: { lagMs: number; polls: number; longestPollMs: number }[];
  load: Ingest;
}

/** Probe loops at once: each writes and polls in turn, so p99 rests on a few hundred probes, not dozens. */
const PROBE_LOOPS = 3;

/**
 * While every in-flight batch goes to `writer`: one-event writes to `writer` from PROBE_LOOPS loops,
 * each write followed by polls of `reader`'s /metrics (back to back) until it has applied the
 * write's position. A probe's lag runs from its ack to the end of the first poll answer showing it
 * (resolution: one poll).
 */
async function replicationLag(writer: PairwiseNode, reader: PairwiseNode, load: Workload, tag: string): Promise<Lag> {
  const loadRun = ingest([writer], load, LAG_SECONDS, tag);
  const result: Omit<Lag, 'load'> = { materialized: [], applied: [], alreadyThere: 0, polls: [], late: [] };
  await sleep(500);
  const end = performance.now() + (LAG_SECONDS - 1) * 1000;
  const probe = async (loop: number) => {
    for (let i = 0; performance.now() < end; i++) {
      const ack = await call(writer.url + EVENTS_BATCH, 'POST', { events: [{ type: 'view', productId: load.productId, sessionId: `lag-${tag}-${loop}-${i}` }] });
      const acked = performance.now();
      const position = parseInt(String(ack.position).split('.')[1]!, 36);
      let materializedAt: number | undefined;
      let longestPollMs = 0;
      for (let polls = 0; ; polls++) {
        const asked = performance.now();
        const { head, applied } = await reader.positions();
        const now = performance.now();
        result.polls.push(now - asked);
        longestPollMs = Math.max(longestPollMs, now - asked);
        if (head >= position) materializedAt ??= now;
        if (applied >= position) {
          if (polls === 0) result.alreadyThere++;
          else result.late.push({ lagMs: now - acked, polls: polls + 1, longestPollMs });
          result.materialized.push(materializedAt! - acked);
          result.applied.push(now - acked);
          break;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: PROBE_LOOPS }, (_, loop) => probe(loop)));
  return { ...result, load: await loadRun };
}

const QUERIES = (load: Workload) => [
  ['trending', 'strategy=trending&limit=8'],
  ['bought-together', `strategy=bought-together&productId=${load.productId}&limit=8`],
  ['similar', `strategy=similar&productId=${load.productId}&limit=8`],
  ['collection-popular', `strategy=collection-popular&collectionId=${load.collectionId}&limit=8`],
  ['personalized', `strategy=personalized&customerId=${load.customerId}&limit=8`],
  ['recently-viewed', `strategy=recently-viewed&sessionId=${load.sessionId}&limit=8`],
] as const;

/** Waits until every node has applied the same head (writes stopped); resolves with it. */
async function settled(nodes: readonly PairwiseNode[]): Promise<number> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const positions = await Promise.all(nodes.map((node) => node.positions()));
    const head = positions[0]!.head;
    if (positions.every((p) => p.head === head && p.applied === head)) return head;
    if (Date.now() > deadline) throw new Error(`the nodes did not converge within 60 s: ${JSON.stringify(positions)}`);
    await sleep(50);
  }
}

/** Each strategy's answer on every node, the per-answer recId left out: identical, or where they first differ. */
async function sameAnswers(nodes: readonly PairwiseNode[], load: Workload): Promise<{ strategy: string; identical: boolean; items: number; detail: string; bodies?: string[] }[]> {
  const rows = [];
  for (const [strategy, query] of QUERIES(load)) {
    const ask = () =>
      Promise.all(
        nodes.map(async (node) => {
          const res = await fetch(`${node.url}/api/recommendations?${query}`, { headers: auth });
          const body = (await res.json()) as { products?: Record<string, unknown>[]; meta?: Record<string, unknown> };
          if (res.status !== 200) throw new Error(`${node.name} GET ?${query}: ${res.status} ${JSON.stringify(body)}`);
          delete body.meta?.recId;
          return body;
        }),
      );
    const bodies = await ask();
    const texts = bodies.map((body) => JSON.stringify(body));
    const identical = texts.every((text) => text === texts[0]);
    const meta = bodies[0]!.meta ?? {};
    let detail = `meta.strategy ${String(meta.strategy)}, modelLevel ${String(meta.modelLevel)}`;
    if (!identical) {
      const lists = bodies.map((body) => (body.products ?? []).map((p) => `${String(p.id).replace(/.*\//, '')}:${String(p.score)}`));
      const at = lists[0]!.findIndex((_, i) => lists.some((list) => list[i] !== lists[0]![i]));
      // Asked again: an answer that differs only for a moment (caches, time) is told apart from models that differ.
      const again = (await ask()).map((body) => JSON.stringify(body));
      detail = `first difference at item ${at}: ${lists.map((list, i) => `${nodes[i]!.name} ${list[at] ?? '-'}`).join(', ')}; asked again: ${again.every((text) => text === again[0]) ? 'identical' : 'still different'}`;
    }
    rows.push({ strategy, identical, items: bodies[0]!.products?.length ?? 0, detail, ...(identical ? {} : { bodies: texts }) });
  }
  return rows;
}

function quantiles(values: readonly number[]): { p50: number; p99: number; max: number; count: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  return { p50: at(0.5), p99: at(0.99), max: at(1), count: sorted.length };
}

interface ClusterResult {
  replicas: number;
  ingest: Ingest;
  lag: Lag;
  converged: number;
  /** Each node's model figures once converged (models()). */
  models: Record<string, number>[];
  answers: Awaited<ReturnType<typeof sameAnswers>>;
}

/** 3 nodes on one stream of `cluster` with `replicas` replicas: warm-up, ingest over all three, lag, answers. */
async function clusterTarget(cluster: NatsCluster, replicas: number, load: Workload): Promise<ClusterResult> {
  const env = { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: `BENCH_R${replicas}`, PAIRWISE_NATS_REPLICAS: String(replicas) };
  const nodes: PairwiseNode[] = [];
  try {
    // The first creates the stream; the others find it.
    nodes.push(await PairwiseNode.start(`r${replicas}-node1`, shop, pinning, env));
    nodes.push(...(await Promise.all([2, 3].map((n) => PairwiseNode.start(`r${replicas}-node${n}`, shop, pinning, env)))));
    await prepare(nodes[0]!, load);
    progress(`  R${replicas}: 3 nodes up (${nodes.map((n) => n.url).join(', ')})`);
    if (warmupSeconds > 0) await ingest(nodes, load, warmupSeconds, `r${replicas}-warm`);
    const measured = await ingestWithCpu({ nodes: nodes.map((n) => n.child), nats: cluster.processes }, nodes, load, seconds, `r${replicas}`);
    progress(`  R${replicas} ingest: ${Math.round(measured.eventsPerSec)} events/s, ack p99 ${measured.p99Ms.toFixed(1)} ms`);
    const lag = await replicationLag(nodes[0]!, nodes[2]!, load, `r${replicas}-lag`);
    progress(`  R${replicas} lag: ${lag.applied.length} probes, applied p99 ${quantiles(lag.applied).p99.toFixed(1)} ms`);
    const converged = await settled(nodes);
    const answers = await sameAnswers(nodes, load);
    return { replicas, ingest: measured, lag, converged, models: await Promise.all(nodes.map((node) => node.models())), answers };
  } finally {
    for (const node of nodes) await node.stop();
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

function report(baselines: Ingest[], clusters: ClusterResult[]): string {
  const base = { eventsPerSec: (baselines[0]!.eventsPerSec + baselines[1]!.eventsPerSec) / 2, p99Ms: (baselines[0]!.p99Ms + baselines[1]!.p99Ms) / 2 };
  const moved = ((baselines[1]!.eventsPerSec - baselines[0]!.eventsPerSec) / baselines[0]!.eventsPerSec) * 100;
  const cpu = (r: Ingest) => Object.values(r.cpuPerThousand ?? {}).reduce((sum, v) => sum + v, 0) * 1000;
  const baseCpu = (cpu(baselines[0]!) + cpu(baselines[1]!)) / 2;
  const cpuNote = (r: Ingest) => {
    const parts = Object.entries(r.cpuPerThousand ?? {}).map(([group, v]) => `${group} ${(v * 1000).toFixed(0)}`);
    return `CPU ${parts.join(' + ')} ms per 1k events (${(cpu(r) / baseCpu).toFixed(1)}× the baseline's)`;
  };
  const flags = (r: Ingest) => [r.non2xx > 0 ? `${r.non2xx} non-2xx!` : '', r.errors > 0 ? `${r.errors} errors!` : ''].filter(Boolean).join('; ');
  const rows = [
    ['target', 'events/s', 'ratio', 'ack p50 ms', 'ack p99 ms', 'p99 ratio', 'notes'],
    ['LMDB log, 1 node (baseline)', fmt(base.eventsPerSec), '1.00', ((baselines[0]!.p50Ms + baselines[1]!.p50Ms) / 2).toFixed(1), base.p99Ms.toFixed(1), '1.00', `before ${fmt(baselines[0]!.eventsPerSec)}, after ${fmt(baselines[1]!.eventsPerSec)} events/s; CPU ${baseCpu.toFixed(0)} ms per 1k events${Math.abs(moved) > 20 ? ` (noisy: moved ${moved.toFixed(0)}%)` : ''} ${flags(baselines[0]!)} ${flags(baselines[1]!)}`.trim()],
    ...clusters.map((c) => [
      `JetStream R${c.replicas}, 3 NATS + 3 nodes`,
      fmt(c.ingest.eventsPerSec),
      (c.ingest.eventsPerSec / base.eventsPerSec).toFixed(2),
      c.ingest.p50Ms.toFixed(1),
      c.ingest.p99Ms.toFixed(1),
      (c.ingest.p99Ms / base.p99Ms).toFixed(2),
      `per node ${c.ingest.perNode.map((r) => fmt(r.requestsPerSec * EVENTS_PER_BATCH)).join(' / ')} events/s; ${cpuNote(c.ingest)} ${flags(c.ingest)}`.trim(),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === 0 || i === 6 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd());
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  lines.push('', 'replication lag, node 1 ack → node 3 /metrics showing the position (all batch connections writing to node 1 meanwhile; upper bounds, to one poll):');
  for (const c of clusters) {
    const m = quantiles(c.lag.materialized);
    const a = quantiles(c.lag.applied);
    const poll = quantiles(c.lag.polls);
    lines.push(
      `  R${c.replicas}: ${a.count} probes under ${fmt(c.lag.load.eventsPerSec)} events/s, ${c.lag.alreadyThere} already there at the first poll (poll round trip p50 ${poll.p50.toFixed(1)} ms, p99 ${poll.p99.toFixed(1)} ms)`,
      c.lag.late.length === 0
        ? '      none later'
        : `      the ${c.lag.late.length} others: lag p50 ${quantiles(c.lag.late.map((l) => l.lagMs)).p50.toFixed(1)} ms after ${quantiles(c.lag.late.map((l) => l.polls)).p50} polls (at most ${quantiles(c.lag.late.map((l) => l.polls)).max}), their longest poll p50 ${quantiles(c.lag.late.map((l) => l.longestPollMs)).p50.toFixed(1)} ms`,
      `      in node 3's log: p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms, max ${m.max.toFixed(1)} ms; applied by its models: p50 ${a.p50.toFixed(1)} ms, p99 ${a.p99.toFixed(1)} ms, max ${a.max.toFixed(1)} ms`,
    );
  }
  lines.push('', 'answers after the writes stopped, identical on the three nodes:');
  for (const c of clusters) {
    lines.push(`  R${c.replicas} (all three at position ${c.converged}): ${c.answers.map((a) => `${a.strategy} ${a.identical ? 'yes' : 'NO'} (${a.items})`).join(', ')}`);
    for (const a of c.answers) if (!a.identical) lines.push(`    ${a.strategy}: ${a.detail}`);
    lines.push(`    models, node 1 / 2 / 3: ${Object.keys(c.models[0]!).map((name) => `${name} ${c.models.map((m) => m[name]).join(' / ')}`).join('; ')}`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  if (!natsServerAvailable()) throw new Error('nats-server is not installed (Debian: apt-get install nats-server; or BENCH_NATS_SERVER=/path/to/nats-server)');
  pinSelfToLoadCpu(pinning);
  const loadBefore = os.loadavg()[0]!;
  progress(`bench/replicated-log: ${seconds}s per run (+${warmupSeconds}s warm-up), ${CONNECTIONS} batch requests in flight, ${LAG_SECONDS}s of lag probes; ${pinning.note}; ${useWrk ? 'wrk' : 'autocannon (wrk not installed or BENCH_WRK=0)'}; load average ${loadBefore.toFixed(2)}`);
  const load = workload();
  const baselineNode = await PairwiseNode.start('lmdb', shop, pinning, {});
  let cluster: NatsCluster | undefined;
  try {
    await prepare(baselineNode, load);
    if (warmupSeconds > 0) await ingest([baselineNode], load, warmupSeconds, 'lmdb-warm');
    const baselines = [await ingestWithCpu({ nodes: [baselineNode.child] }, [baselineNode], load, seconds, 'lmdb-before')];
    progress(`  LMDB ingest: ${Math.round(baselines[0]!.eventsPerSec)} events/s, ack p99 ${baselines[0]!.p99Ms.toFixed(1)} ms`);
    cluster = await NatsCluster.start(3, pinning, process.env.BENCH_DATA_PARENT);
    const clusters = [await clusterTarget(cluster, 3, load), await clusterTarget(cluster, 1, load)];
    baselines.push(await ingestWithCpu({ nodes: [baselineNode.child] }, [baselineNode], load, seconds, 'lmdb-after'));
    const text = report(baselines, clusters);
    console.log(text);
    const file = writeResults('replicated-log', {
      settings: { seconds, warmupSeconds, connections: CONNECTIONS, lagSeconds: LAG_SECONDS, products: PRODUCTS, tool: useWrk ? 'wrk' : 'autocannon', pinning: pinning.note },
      environment: environment(),
      loadBefore,
      baselines,
      clusters,
    });
    progress(`results: ${file}`);
  } finally {
    await cluster?.stop();
    await baselineNode.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
