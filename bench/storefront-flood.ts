// How fast the public key can fill the disk: the real service in its own process with its default
// rate limits applied to loopback (PAIRWISE_RATE_LIMIT_EXEMPT=''), and a flooder sending, for
// BENCH_FLOOD_SECONDS (20), batches of 100 view events of one session with random product ids, fresh
// messageIds and 900 bytes of metadata each, on BENCH_FLOOD_CONNECTIONS (16) connections, as fast as
// it is answered. Measured: events stored and refused (by code), and the growth of the data dir
// (its files' sizes, data.mdb with them) from before the flood to after it. Three runs:
//   (a) one address, the defaults: the rate limits count events;
//   (b) BENCH_FLOOD_ADDRESSES (1000) addresses through a trusted proxy (X-Forwarded-For), with the
//       storefront budget at BENCH_FLOOD_BUDGET (20,000) events a day: what the budget bounds;
//   (c) the baseline, in the same run: one address with no rate limit and no budget at all.
//   npm run bench:storefront-flood   (BENCH_FLOOD_SECONDS, BENCH_FLOOD_CONNECTIONS, BENCH_FLOOD_ADDRESSES, BENCH_FLOOD_BUDGET)
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.js';
import { ChildServer } from './support/child-server.js';
import { EVENTS_BATCH, EVENTS_PER_BATCH } from './support/http-workload.js';
import { detectPinning, pinSelfToLoadCpu } from './support/pinning.js';
import { prng } from './support/prng.js';
import { environment, writeResults } from './support/report.js';
import { integerSetting } from './support/settings.js';
import type { ServiceInfo } from './support/workload-sample.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const pinning = detectPinning();
const progress = (line: string) => process.stderr.write(`${line}\n`);
const MB = 1024 * 1024;
const METADATA = { note: 'x'.repeat(890) }; // 900 bytes as JSON
/** The service's own start (a catalog of 400, no events): no rate limit is spent before the flood. */
const BASE_ENV = { BENCH_SERVICE_MODE: 'bootstrap', BENCH_SEED_EVENTS: '0', PAIRWISE_RATE_LIMITS: '1', PAIRWISE_RATE_LIMIT_EXEMPT: '', PAIRWISE_EASE_REFIT_EVENTS: '0', PAIRWISE_EASE_REFIT_MINUTES: '0' };

interface Run {
  name: string;
  addresses: number;
  seconds: number;
  requests: number;
  stored: number;
  /** Events refused, by the code of the refusal (429 rate_limited, storefront_quota …). */
  refused: Record<string, number>;
  dataDirBytesBefore: number;
  dataDirBytesAfter: number;
  growthBytes: number;
}

/** The data dir's files together (the LMDB file grows as its pages are used). */
function dirBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    bytes += entry.isDirectory() ? dirBytes(full) : statSync(full).size;
  }
  return bytes;
}

async function flood(name: string, env: Record<string, string>, addresses: number, seconds: number, connections: number): Promise<Run> {
  const service = await ChildServer.start('service-server', path.join(here, 'service-server.js'), { ...BASE_ENV, ...env }, pinning);
  try {
    const info = service.info as unknown as ServiceInfo;
    const random = prng(7);
    const productIds = Array.from({ length: 1000 }, () => String(Math.floor(random() * 1e9)));
    let n = 0;
    const batch = () => JSON.stringify({ events: Array.from({ length: EVENTS_PER_BATCH }, () => ({ type: 'view', productId: productIds[n % productIds.length], sessionId: 'flooder', messageId: `m${name}${n++}`, metadata: METADATA })) });
    const run: Run = { name, addresses, seconds, requests: 0, stored: 0, refused: {}, dataDirBytesBefore: dirBytes(info.dataDir), dataDirBytesAfter: 0, growthBytes: 0 };
    const end = performance.now() + seconds * 1000;
    const sender = async (c: number) => {
      for (let i = 0; performance.now() < end; i++) {
        const headers: Record<string, string> = { authorization: `Bearer ${info.publicKey}`, 'content-type': 'application/json' };
        if (addresses > 1) headers['x-forwarded-for'] = `10.${(c * 7919 + i) % addresses >> 8}.${(c * 7919 + i) % addresses & 255}.9`;
        const res = await fetch(service.url + EVENTS_BATCH, { method: 'POST', headers, body: batch() });
        const body = (await res.json()) as { accepted?: number; code?: string };
        run.requests++;
        if (res.status === 200) run.stored += body.accepted ?? 0;
        else run.refused[body.code ?? String(res.status)] = (run.refused[body.code ?? String(res.status)] ?? 0) + EVENTS_PER_BATCH;
      }
    };
    await Promise.all(Array.from({ length: connections }, (_, c) => sender(c)));
    run.dataDirBytesAfter = dirBytes(info.dataDir);
    run.growthBytes = run.dataDirBytesAfter - run.dataDirBytesBefore;
    return run;
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  pinSelfToLoadCpu(pinning);
  const seconds = integerSetting('BENCH_FLOOD_SECONDS', 20, 1, 600);
  const connections = integerSetting('BENCH_FLOOD_CONNECTIONS', 16, 1, 256);
  const addresses = integerSetting('BENCH_FLOOD_ADDRESSES', 1000, 2, 65_536);
  const budget = integerSetting('BENCH_FLOOD_BUDGET', 20_000, 1, 1_000_000_000);
  progress(`bench/storefront-flood: batches of ${EVENTS_PER_BATCH} events with 900-byte metadata for ${seconds} s on ${connections} connections; ${pinning.note}`);

  const runs: Run[] = [];
  progress('(a) one address, default rate limits and budget…');
  const { eventsPerDay, bytesPerDay } = loadConfig({}).storefrontQuota;
  runs.push(await flood('one-address', { PAIRWISE_STOREFRONT_EVENTS_PER_DAY: String(eventsPerDay), PAIRWISE_STOREFRONT_MB_PER_DAY: String(bytesPerDay / MB) }, 1, seconds, connections));
  progress(`(b) ${addresses} addresses through a trusted proxy, storefront budget ${budget} events a day…`);
  runs.push(await flood('many-addresses', { PAIRWISE_TRUSTED_PROXIES: '127.0.0.1', PAIRWISE_STOREFRONT_EVENTS_PER_DAY: String(budget) }, addresses, seconds, connections));
  progress('(c) baseline: one address, no rate limit, no budget…');
  runs.push(await flood('unlimited', { PAIRWISE_RATE_LIMITS: '0', PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '0', PAIRWISE_STOREFRONT_MB_PER_DAY: '0' }, 1, seconds, connections));

  const file = writeResults('storefront-flood', { benchmark: 'storefront-flood', finishedAt: new Date().toISOString(), settings: { seconds, connections, addresses, budget }, pinning, environment: environment(), runs });
  const baseline = runs[2]!;
  console.log('');
  console.log(`the public key flooding the disk: batches of ${EVENTS_PER_BATCH} views with 900-byte metadata, ${seconds} s, ${connections} connections`);
  for (const r of runs) {
    const refused = Object.entries(r.refused).map(([code, count]) => `${count.toLocaleString('en-US')} ${code}`).join(', ') || 'none';
    console.log(
      `  ${r.name.padEnd(15)}: ${r.stored.toLocaleString('en-US')} events stored (${r.requests.toLocaleString('en-US')} requests; refused: ${refused}); data dir +${(r.growthBytes / MB).toFixed(1)} MB` +
        (r === baseline ? ' (baseline)' : `, ${((100 * r.growthBytes) / Math.max(1, baseline.growthBytes)).toFixed(2)} % of the baseline's growth`),
    );
  }
  console.log(`results: ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
