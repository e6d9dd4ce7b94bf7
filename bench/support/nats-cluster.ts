// A NATS JetStream cluster for a benchmark: `size` nats-server processes (Debian's package, or
// BENCH_NATS_SERVER) on free loopback ports, clustered by routes, each with its own temp store dir,
// pinned to the server CPU like the service. Stopped (SIGKILL, store dirs removed) at the end, or
// when this process exits for any reason. The tests' harness (test/support/nats-cluster.ts) also
// kills and restarts servers; a benchmark only needs them up.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { freePort } from './free-port.js';
import { pinned, type Pinning } from './pinning.js';

const NATS_SERVER = process.env.BENCH_NATS_SERVER ?? 'nats-server';
const live = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Whether nats-server can be run (Debian: apt-get install nats-server). */
export function natsServerAvailable(): boolean {
  return spawnSync(NATS_SERVER, ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** A cluster member's nats-server arguments: JetStream on, its store dir, routes to every member. */
export function natsServerArgs(member: { name: string; clientPort: number; routePort: number; storeDir: string }, routes: string, clusterName: string): string[] {
  return ['-a', '127.0.0.1', '-p', String(member.clientPort), '-n', member.name, '-js', '-sd', member.storeDir,
    '--cluster_name', clusterName, '--cluster', `nats://127.0.0.1:${member.routePort}`, '--routes', routes];
}

/** The throwaway stream untilJetStreamAnswers places to see every server joined. */
const READY_PROBE = 'PAIRWISE_READY_PROBE';

/**
 * Resolves once a client reaches `urls`, JetStream answers (a meta leader is elected) and every
 * server has joined it (a stream of one replica per server can be placed: before that, creating
 * one fails with "no suitable peers for placement"); throws after `timeoutMs`, or as soon as
 * `exited` names a server that exited, with `output()`.
 */
export async function untilJetStreamAnswers(urls: readonly string[], timeoutMs: number, exited: () => string | undefined, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const gone = exited();
    if (gone !== undefined) throw new Error(`${gone}:\n${output()}`);
    try {
      const nc = await connect({ servers: [...urls], timeout: 1_000, maxReconnectAttempts: 0 });
      try {
        const manager = await jetstreamManager(nc, { timeout: 1_000 });
        await manager.getAccountInfo();
        if (urls.length > 1) {
          await manager.streams.add({ name: READY_PROBE, subjects: [`${READY_PROBE}.probe`], num_replicas: urls.length, storage: StorageType.Memory });
          await manager.streams.delete(READY_PROBE);
        }
        return;
      } finally {
        await nc.close();
      }
    } catch (error) {
      last = error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`the NATS cluster did not answer within ${timeoutMs} ms: ${String(last)}\n${output()}`);
}

export class NatsCluster {
  private constructor(
    readonly urls: readonly string[],
    readonly root: string,
    readonly processes: readonly ChildProcess[],
    readonly output: () => string,
  ) {}

  /** Starts `size` clustered servers; resolves once JetStream answers (a meta leader is elected). */
  static async start(size: number, pinning: Pinning, parent = tmpdir()): Promise<NatsCluster> {
    const root = mkdtempSync(path.join(parent, 'pairwise-bench-nats-'));
    const ports = [];
    for (let i = 0; i < size; i++) ports.push({ client: await freePort(), route: await freePort() });
    const routes = ports.map((p) => `nats://127.0.0.1:${p.route}`).join(',');
    let output = '';
    const processes = ports.map((p, i) => {
      const args = natsServerArgs({ name: `n${i + 1}`, clientPort: p.client, routePort: p.route, storeDir: path.join(root, `n${i + 1}`) }, routes, 'pairwise-bench');
      const [command, argv] = pinned(pinning, pinning.serverCpu, NATS_SERVER, args);
      const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
      live.add(child);
      child.once('exit', () => live.delete(child));
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      return child;
    });
    const cluster = new NatsCluster(ports.map((p) => `nats://127.0.0.1:${p.client}`), root, processes, () => output);
    try {
      await cluster.#ready(30_000);
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  #ready(timeoutMs: number): Promise<void> {
    const exited = () => {
      const child = this.processes.find((p) => p.exitCode !== null);
      return child === undefined ? undefined : `a nats-server exited with ${child.exitCode}`;
    };
    return untilJetStreamAnswers(this.urls, timeoutMs, exited, this.output);
  }

  /** Kills every server and removes the store dirs. */
  async stop(): Promise<void> {
    await Promise.all(
      this.processes.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        return exited;
      }),
    );
    rmSync(this.root, { recursive: true, force: true });
  }
}
