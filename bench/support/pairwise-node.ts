// A Pairwise node as a benchmark target: `node dist/src/main.js` as a child process (one server
// process, rate limits off unless the environment sets them, its own temp data dir, removed on
// stop), pinned to the server CPU; what its /metrics says of the shop's log and models; and the CPU
// time of child processes from /proc, to say where a run's time went.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';
import { pinned, type Pinning } from './pinning.js';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shop every node is started with, and its keys. */
export interface BenchShop {
  shopId: string;
  publicKey: string;
  secretKey: string;
}

const NODE_ARGS = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux (getconf CLK_TCK). */
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) process `pid` has used so far; NaN when /proc cannot say. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND; // utime, stime: fields 14 and 15 of the line
  } catch {
    return NaN;
  }
}

/** CPU seconds of each group of processes over `run`. */
export async function cpuOver<T>(groups: Record<string, readonly ChildProcess[]>, run: () => Promise<T>): Promise<{ result: T; cpu: Record<string, number> }> {
  const total = (children: readonly ChildProcess[]) => children.reduce((sum, child) => sum + cpuSeconds(child.pid), 0);
  const before = Object.fromEntries(Object.entries(groups).map(([name, children]) => [name, total(children)]));
  const result = await run();
  return { result, cpu: Object.fromEntries(Object.entries(groups).map(([name, children]) => [name, total(children) - before[name]!])) };
}

/** One Pairwise node: `node dist/src/main.js`, one server process, its own temp data dir. */
export class PairwiseNode {
  #output = '';
  private constructor(
    readonly name: string,
    readonly url: string,
    readonly child: ChildProcess,
    readonly dataDir: string,
    readonly shop: BenchShop,
  ) {}

  /** Starts a node serving `shop` (its keys bootstrapped from the environment), pinned to the server CPU; resolves once /healthz answers 200. */
  static async start(name: string, shop: BenchShop, pinning: Pinning, env: Record<string, string>): Promise<PairwiseNode> {
    const dataDir = mkdtempSync(path.join(process.env.BENCH_DATA_PARENT ?? os.tmpdir(), `pairwise-bench-${name}-`));
    const port = await freePort();
    const [command, args] = pinned(pinning, pinning.serverCpu, process.execPath, [...NODE_ARGS, MAIN]);
    const child = spawn(command, args, {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        PAIRWISE_DATA_DIR: dataDir,
        PAIRWISE_DEMO: '0',
        PAIRWISE_SERVERS: '1',
        PAIRWISE_RATE_LIMITS: process.env.PAIRWISE_RATE_LIMITS ?? '0',
        PAIRWISE_SHOP: shop.shopId,
        PAIRWISE_PUBLIC_KEY: shop.publicKey,
        PAIRWISE_SECRET_KEY: shop.secretKey,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const node = new PairwiseNode(name, `http://127.0.0.1:${port}`, child, dataDir, shop);
    const keep = (chunk: Buffer) => (node.#output = (node.#output + chunk.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${node.#output}`);
      if (Date.now() > deadline) {
        await node.stop();
        throw new Error(`${name} did not answer /healthz within 60 s:\n${node.#output}`);
      }
      const ok = await fetch(`${node.url}/healthz`).then((res) => res.status === 200, () => false);
      if (ok) return node;
      await sleep(50);
    }
  }

  /** The shop's log head (materialized on this node) and the position its models have applied. */
  async positions(): Promise<{ head: number; applied: number }> {
    const text = await (await fetch(`${this.url}/metrics`, { headers: { authorization: `Bearer ${this.shop.secretKey}` } })).text();
    const gauge = (name: string) => Number(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
    return { head: gauge('pairwise_log_head_position'), applied: gauge('pairwise_log_applied_position') };
  }

  /** What the node's models hold (/metrics), to tell apart nodes whose answers differ: the same log applied gives the same figures. */
  async models(): Promise<Record<string, number>> {
    const text = await (await fetch(`${this.url}/metrics`, { headers: { authorization: `Bearer ${this.shop.secretKey}` } })).text();
    const names = ['pairwise_log_entries', 'pairwise_events_applied_total', 'pairwise_shoppers_tracked', 'pairwise_pending_events', 'pairwise_ease_fit_products'];
    return Object.fromEntries(names.map((name) => [name.replace(/^pairwise_/, ''), Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'm').exec(text)?.[1] ?? NaN)]));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
