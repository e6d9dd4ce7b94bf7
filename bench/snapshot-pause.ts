// GET /api/recommendations while snapshots are taken, through the real service at store size
// (bench/snapshot-server.ts: BENCH_PRODUCTS 100k products, BENCH_EVENTS 2M events by default).
// Two wrk runs of BENCH_SECONDS on the same paths: one quiet, one with a snapshot asked for every
// BENCH_SNAPSHOT_EVERY_SECONDS. Reports wrk's p99 in each and the server's own event-loop delay
// (its longest turn: the pause every request queued behind it saw), plus each snapshot's duration.
//   npm run bench:snapshot-pause
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChildServer } from './support/child-server.js';
import type { LoadResult } from './support/load-result.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { benchSettings, integerSetting } from './support/settings.js';
import { runWrk, wrkAvailable } from './support/wrk-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const settings = benchSettings();
const pinning = detectPinning();
const every = integerSetting('BENCH_SNAPSHOT_EVERY_SECONDS', 4, 1, 3600);
const progress = (line: string) => process.stderr.write(`${line}\n`);

interface Loop {
  maxMs: number;
  p99Ms: number;
}

async function main(): Promise<void> {
  if (!wrkAvailable()) throw new Error('wrk is needed (apt-get install wrk)');
  pinSelfToLoadCpu(pinning);
  progress(`pinning: ${pinning.note}; filling the store in the server (about a minute per million events on a 2-core box)`);
  const server = await ChildServer.start('snapshot-server', path.join(here, 'snapshot-server.js'), {}, pinning, ['--max-old-space-size=16384'], 1_800_000);
  const info = server.info as unknown as { publicKey: string; productIds: string[]; customerIds: string[]; rssMB: number };
  const loops: Loop[] = [];
  const snapshots: number[] = [];
  let loopArrived: (() => void) | undefined;
  createInterface({ input: server.child.stdout! }).on('line', (line) => {
    if (line.startsWith('{"loop"')) {
      loops.push((JSON.parse(line) as { loop: Loop }).loop);
      loopArrived?.();
    } else if (line.startsWith('{"snapshot"')) {
      snapshots.push((JSON.parse(line) as { snapshot: { ms: number } }).snapshot.ms);
    }
  });
  const loopSince = async (): Promise<Loop> => {
    const arrived = new Promise<void>((resolve) => (loopArrived = resolve));
    server.child.kill('SIGUSR1');
    await arrived;
    return loops[loops.length - 1]!;
  };
  try {
    const headers = { authorization: `Bearer ${info.publicKey}` };
    const q = (query: string) => `/api/recommendations?${query}&limit=8`;
    const paths = info.productIds.flatMap((id, i) => [
      q(`productId=${encodeURIComponent(id)}`),
      q(`strategy=similar&productId=${encodeURIComponent(id)}`),
      q(`strategy=bought-together&productId=${encodeURIComponent(id)}`),
      q(i % 2 === 0 ? 'strategy=trending' : `strategy=recently-viewed&sessionId=s_${i}`),
    ]);
    const wrk = (seconds: number) => runWrk({ url: server.url, connections: settings.connections, seconds, headers, paths }, pinning);
    await wrk(Math.max(2, settings.warmupSeconds));
    server.child.kill('SIGUSR2'); // a first snapshot outside the measurement (the first write of every part)
    await new Promise((resolve) => setTimeout(resolve, 15_000));

    await loopSince();
    const quiet = await wrk(settings.seconds);
    const quietLoop = await loopSince();
    progress(`quiet: p99 ${quiet.latencyP99Ms.toFixed(2)} ms, longest turn ${quietLoop.maxMs.toFixed(1)} ms`);

    const before = snapshots.length;
    const timer = setInterval(() => server.child.kill('SIGUSR2'), every * 1000);
    let during: LoadResult;
    try {
      during = await wrk(settings.seconds);
    } finally {
      clearInterval(timer);
    }
    const duringLoop = await loopSince();
    await new Promise((resolve) => setTimeout(resolve, 3000)); // the last snapshot's report
    const taken = snapshots.slice(before);
    const row = (label: string, r: LoadResult, loop: Loop) =>
      `${label.padEnd(28)} ${r.requestsPerSec.toFixed(0).padStart(7)} req/s  p50 ${r.latencyP50Ms.toFixed(2)} ms  p99 ${r.latencyP99Ms.toFixed(2)} ms  non2xx ${r.non2xx}  longest event-loop turn ${loop.maxMs.toFixed(1)} ms`;
    console.log(
      [
        `GET during snapshots (${info.productIds.length * 4} paths, server rss ${info.rssMB} MB after the fill; wrk -c${settings.connections}, ${settings.seconds} s per run; ${pinning.note})`,
        row('quiet', quiet, quietLoop),
        row(`a snapshot every ${every} s`, during, duringLoop),
        `p99 during snapshots / quiet: ${(during.latencyP99Ms / quiet.latencyP99Ms).toFixed(2)}; snapshots taken: ${taken.length}, each ${taken.map((ms) => ms.toFixed(0)).join(', ')} ms end to end`,
      ].join('\n'),
    );
  } finally {
    await server.stop(60_000);
  }
}

await main();
