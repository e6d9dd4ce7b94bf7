// Several server processes on one port (PAIRWISE_SERVERS, default 2 here): how long a write acknowledged
// by one takes to be visible on another (idle, then under a GET load from wrk when it is installed),
// what a kill -9 of one server costs the clients of a GET load (failed requests per second around
// it), and whether any acknowledged event is lost over repeated kills (BENCH_KILLS, default 20).
// Usage: npm run bench:replicas   (env: BENCH_SERVERS, BENCH_KILLS, BENCH_LAG_EVENTS)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabases } from '../src/store/database.js';
import { closeDatabases } from '../src/store/durable-commit.js';
import { LmdbShopLog } from '../src/store/shop-log.js';
import { generateKey } from '../src/store/shop-store.js';
import { freePort } from './support/free-port.js';

const SERVERS = Number(process.env.BENCH_SERVERS ?? 2);
const KILLS = Number(process.env.BENCH_KILLS ?? 20);
const LAG_EVENTS = Number(process.env.BENCH_LAG_EVENTS ?? 300);
const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.js');
const SHOP = 'replicas';
const publicKey = generateKey('public');
const secretKey = generateKey('secret');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Reply {
  status: number;
  json: any;
}

/** One keep-alive connection: the server the kernel gave it answers all its requests. */
class Client {
  readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  constructor(readonly base: string) {}

  call(method: string, path: string, body?: unknown, key = publicKey): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(this.base + path, { method, agent: this.agent, headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, json: text.startsWith('{') ? JSON.parse(text) : undefined }));
      });
      req.once('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Clients until one talks to each of two different servers. */
async function twoServers(base: string): Promise<[Client, Client]> {
  const byPid = new Map<number, Client>();
  for (let i = 0; i < 500 && byPid.size < 2; i++) {
    const client = new Client(base);
    const pid = (await client.call('GET', '/healthz')).json.pid as number;
    if (byPid.has(pid)) client.close();
    else byPid.set(pid, client);
  }
  if (byPid.size < 2) throw new Error('could not reach two servers');
  return [...byPid.values()] as [Client, Client];
}

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(2);
  return `p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms (${values.length} events)`;
}

/** Ack on `writer` → first answer of `reader` that shows it (polled as fast as it answers). */
async function lag(writer: Client, reader: Client, count: number, tag: string): Promise<number[]> {
  const lags: number[] = [];
  for (let i = 0; i < count; i++) {
    const sessionId = `lag-${tag}-${i}`;
    await writer.call('POST', '/api/events', { type: 'view', productId: String(1 + (i % 500)), sessionId });
    const acked = performance.now();
    for (;;) {
      const read = await reader.call('GET', `/api/recommendations?strategy=recently-viewed&sessionId=${sessionId}&limit=1`);
      if (read.json?.products?.[0]?.strategy === 'recently-viewed') break;
    }
    lags.push(performance.now() - acked);
  }
  return lags;
}

/** The server processes of the supervisor (its children). */
function serverPids(supervisor: ChildProcess): number[] {
  const out = spawnSync('pgrep', ['-P', String(supervisor.pid)], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter(Boolean).map(Number);
}

/** The supervisor's `count` servers, none of `except`, each answering /healthz (ready). */
async function waitForServers(supervisor: ChildProcess, count: number, except: number[] = [], base?: string): Promise<number[]> {
  for (let i = 0; i < 1200; i++) {
    const pids = serverPids(supervisor).filter((pid) => !except.includes(pid));
    if (pids.length >= count && (base === undefined || (await answering(base, pids)))) return pids;
    await sleep(25);
  }
  throw new Error('servers did not come back');
}

/** Whether every one of `pids` answers on the port (fresh connections land on each in turn). */
async function answering(base: string, pids: number[]): Promise<boolean> {
  const seen = new Set<number>();
  for (let i = 0; i < 20 * pids.length && seen.size < pids.length; i++) {
    const client = new Client(base);
    const reply = await client.call('GET', '/healthz').catch(() => undefined);
    client.close();
    if (reply?.json?.pid !== undefined) seen.add(reply.json.pid);
  }
  return pids.every((pid) => seen.has(pid));
}

/** GET load from `connections` clients for `seconds`; kills a server at `killAt` s; counts answers and failures per second. */
async function failover(base: string, supervisor: ChildProcess, connections: number, seconds: number, killAt: number): Promise<string[]> {
  const started = performance.now();
  const ok: number[] = new Array(seconds).fill(0);
  const failed: number[] = new Array(seconds).fill(0);
  const second = () => Math.floor((performance.now() - started) / 1000);
  const clients = Array.from({ length: connections }, () => new Client(base));
  let killed = 0;
  const killer = (async () => {
    await sleep(killAt * 1000);
    killed = serverPids(supervisor)[0]!;
    process.kill(killed, 'SIGKILL');
  })();
  await Promise.all(
    clients.map(async (client, i) => {
      while (second() < seconds) {
        const s = second();
        try {
          const reply = await client.call('GET', `/api/recommendations?productId=${1 + ((i * 7 + s) % 500)}&limit=8`);
          if (reply.status === 200) ok[s]!++;
          else failed[s]!++;
        } catch {
          if (s < seconds) failed[s]!++;
        }
      }
      client.close();
    }),
  );
  await killer;
  return ok.map((n, s) => `  second ${s}${s === killAt ? ` (kill -9 of pid ${killed})` : ''}: ${n} answered, ${failed[s]} failed (${((100 * failed[s]!) / Math.max(1, n + failed[s]!)).toFixed(2)} %)`);
}

/** Writes events with messageIds while servers are killed one after another; every acknowledged one must be in the log. */
async function killsUnderWrites(base: string, supervisor: ChildProcess, dbPath: string, kills: number): Promise<string> {
  const acked = new Set<string>();
  let writing = true;
  let refused = 0;
  const writers = Array.from({ length: 8 }, (_, w) =>
    (async () => {
      let client = new Client(base);
      for (let i = 0; writing; i++) {
        try {
          const reply = await client.call('POST', '/api/events', { type: 'purchase', productId: String(1 + (i % 500)), sessionId: `w${w}`, messageId: `m-${w}-${i}` });
          if (reply.status === 200) acked.add(reply.json.eventId);
          else refused++;
        } catch {
          refused++; // a connection to a killed server: this one was not acknowledged
          client.close();
          client = new Client(base);
        }
      }
      client.close();
    })(),
  );
  for (let k = 0; k < kills; k++) {
    await sleep(300);
    const [victim] = await waitForServers(supervisor, SERVERS, [], base);
    process.kill(victim!, 'SIGKILL');
    await waitForServers(supervisor, SERVERS, [victim!], base);
  }
  writing = false;
  await Promise.all(writers);
  supervisor.kill('SIGTERM');
  await new Promise((resolve) => supervisor.once('exit', resolve));
  const dbs = openDatabases(dbPath);
  const stored = new Set<string>();
  for (const record of new LmdbShopLog(dbs).read(SHOP)) if (record.event !== undefined) stored.add(record.eventId);
  await closeDatabases(dbs);
  const lost = [...acked].filter((id) => !stored.has(id)).length;
  return `${kills} kills of a server under writes: ${acked.size} events acknowledged, ${lost} of them missing from the log; ${refused} requests failed or refused (not acknowledged)`;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pairwise-replicas-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', PAIRWISE_DATA_DIR: dataDir, PAIRWISE_DEMO: '0', PAIRWISE_RATE_LIMITS: '0', PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '0', PAIRWISE_STOREFRONT_MB_PER_DAY: '0', PAIRWISE_SERVERS: String(SERVERS), PAIRWISE_SHOP: SHOP, PAIRWISE_PUBLIC_KEY: publicKey, PAIRWISE_SECRET_KEY: secretKey };
  const supervisor = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', process.env.BENCH_SERVER_OUTPUT === '1' ? 'inherit' : 'ignore', 'inherit'] });
  try {
    await waitForServers(supervisor, SERVERS);
    for (let i = 0; i < 400; i++) {
      const ok = await new Client(base).call('GET', '/healthz').then((r) => r.status === 200, () => false);
      if (ok) break;
      await sleep(25);
    }
    await sleep(500);
    const setup = new Client(base);
    const products = Array.from({ length: 500 }, (_, i) => ({ id: String(i + 1), title: `Product ${i + 1}`, price: '9.00', collections: [`c${i % 20}`], vendor: `V${i % 7}` }));
    await setup.call('PUT', '/api/products', { products }, secretKey);
    for (let b = 0; b < 100; b++) {
      const events = Array.from({ length: 100 }, (_, i) => ({ type: i % 5 ? 'view' : 'purchase', productId: String(1 + ((b * 31 + i * 7) % 500)), sessionId: `seed-${b}-${i % 10}` }));
      await setup.call('POST', '/api/events/batch', { events });
    }
    console.log(`${SERVERS} server processes, 500 products, 10,000 events`);

    const [a, b] = await twoServers(base);
    console.log(`replication lag, idle (ack from one server → first answer of another that shows it): ${quantiles(await lag(a, b, LAG_EVENTS, 'idle'))}`);
    const wrk = spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
    if (wrk) {
      const load = spawn('wrk', ['-t1', '-c50', '-d30s', '-H', `Authorization: Bearer ${publicKey}`, `${base}/api/recommendations?strategy=trending&limit=8`], { stdio: 'ignore' });
      await sleep(1000);
      console.log(`replication lag under a wrk GET load (-c50): ${quantiles(await lag(a, b, LAG_EVENTS, 'load'))}`);
      load.kill('SIGINT');
    } else {
      console.log('replication lag under load: skipped (wrk is not installed)');
    }
    a.close();
    b.close();

    console.log('GET load from 64 connections, one server killed with SIGKILL at second 3:');
    for (const line of await failover(base, supervisor, 64, 8, 3)) console.log(line);
    await waitForServers(supervisor, SERVERS, [], base);
    console.log(await killsUnderWrites(base, supervisor, path.join(dataDir, 'db'), KILLS));
  } finally {
    if (supervisor.exitCode === null) supervisor.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
