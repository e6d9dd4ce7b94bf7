// Runs the compiled server (dist/, built by global-setup) as a child process on a free port.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort } from '../../bench/support/free-port.js';
import { tempDataDir, testEnv, type TestShop } from './service.js';

const MAIN = path.resolve('dist/src/main.js');

export interface ChildServer {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal, once its output is all read. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Ends a test's server if it still runs (SIGKILL, with its server processes) and waits for its exit: what every afterEach does. */
export async function killIfRunning(child: ChildServer): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  await killTree(child);
}

/** The process ids of `pid` and its descendants (a supervisor and its servers), parents first. */
function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // gone already
  }
  return [pid, ...children.flatMap(processTree)];
}

/**
 * SIGKILL to the child and every process under it at once, as when its machine goes (no lease
 * released, nothing flushed on the way out); resolves once its output is all read, which a
 * supervisor's servers, sharing its stdout, would otherwise hold open.
 */
export async function killTree(child: ChildServer): Promise<void> {
  for (const pid of processTree(child.process.pid!)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await child.exited;
}

export { freePort };

/** Why the child will never answer (it exited, with its code or signal), or undefined while it runs. */
export function exitReason(child: ChildServer): string | undefined {
  const { exitCode, signalCode } = child.process;
  return exitCode === null && signalCode === null ? undefined : `it exited with ${signalCode ?? `code ${exitCode}`}`;
}

async function waitHealthy(url: string, child: ChildServer, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`server exited early:\n${child.output()}`);
    try {
      const res = await fetch(url + '/healthz');
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`server not healthy after ${timeoutMs} ms:\n${child.output()}`);
}

export async function startChildServer(dataDir: string, shop: TestShop, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = await spawnChildServer(dataDir, shop, env);
  try {
    await waitHealthy(child.url, child);
  } catch (error) {
    child.process.kill('SIGKILL');
    throw error;
  }
  return child;
}

/** Waits (up to 10 s) until `servers` server processes of the supervisor `child` have said they are ready. */
export async function untilServersReady(child: ChildServer, servers = 2): Promise<void> {
  for (let i = 0; i < 200 && (child.output().match(/ready:/g) ?? []).length < servers; i++) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * A supervisor of two server processes (PAIRWISE_SERVERS=2, plus `env`) on a data dir of its own,
 * for one test file: started before its tests (both servers ready), killed and its data dir
 * removed after them.
 */
export function twoServers(shop: TestShop, env: Record<string, string> = {}): { readonly dataDir: string; readonly child: ChildServer } {
  const dataDir = tempDataDir();
  let child: ChildServer | undefined;
  beforeAll(async () => {
    child = await startChildServer(dataDir, shop, { PAIRWISE_SERVERS: '2', ...env });
    await untilServersReady(child);
  });
  afterAll(async () => {
    if (child !== undefined) await killIfRunning(child);
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    get child(): ChildServer {
      if (child === undefined) throw new Error('the servers start in beforeAll');
      return child;
    },
  };
}

/** The server process, spawned and not waited for (it may refuse to start: see `exited`). `env.PORT` overrides the free port. */
export async function spawnChildServer(dataDir: string, shop: TestShop, env: Record<string, string> = {}): Promise<ChildServer> {
  const port = env.PORT ?? String(await freePort());
  const proc = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH ?? '', ...testEnv(dataDir, shop, { ...env, PORT: port }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('close', (code, signal) => resolve({ code, signal })); // after its output is all read
  });
  return { url: `http://127.0.0.1:${port}`, process: proc, output: () => output, exited };
}

/** `pairwise_events_applied_total` of the shop, read from GET /metrics with the secret key. */
export async function eventsApplied(url: string, shop: TestShop): Promise<number> {
  const res = await fetch(url + '/metrics', { headers: { authorization: `Bearer ${shop.secretKey}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET /metrics ${res.status}: ${text}`);
  const match = new RegExp(`^pairwise_events_applied_total\\{shop="${shop.shopId}"\\} (\\d+)$`, 'm').exec(text);
  if (match === null) throw new Error(`no pairwise_events_applied_total in:\n${text}`);
  return Number(match[1]);
}
