// A real NATS JetStream cluster for tests: `size` nats-server processes (Debian's package) on free
// loopback ports, clustered by routes, each with its own temp store dir. Servers can be killed and
// started again on the same ports and store, as an operator's would be.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { natsServerArgs, untilJetStreamAnswers } from '../../bench/support/nats-cluster.js';
import { freePort } from './child-server.js';

/** One query per strategy, for comparing nodes' answers (products 1-2, collection c1, session s1, customer cust-1). */
export const NODE_QUERIES = [
  'strategy=trending&limit=8',
  'strategy=bought-together&productId=1',
  'strategy=similar&productId=2',
  'strategy=collection-popular&collectionId=c1',
  'strategy=recently-viewed&sessionId=s1',
  'customerId=cust-1&limit=8',
];

const NATS_SERVER = process.env.PAIRWISE_TEST_NATS_SERVER ?? 'nats-server';

interface Member {
  readonly name: string;
  readonly clientPort: number;
  readonly routePort: number;
  readonly storeDir: string;
  process?: ChildProcess;
  output: string;
}

export class NatsCluster {
  readonly #members: Member[];
  readonly #root: string;

  private constructor(members: Member[], root: string) {
    this.#members = members;
    this.#root = root;
  }

  /** Starts `size` clustered servers and resolves once JetStream answers (a meta leader is elected). */
  static async start(size = 3): Promise<NatsCluster> {
    for (let attempt = 1; ; attempt++) {
      const cluster = await NatsCluster.planned(size);
      cluster.startAll();
      try {
        await cluster.ready();
        return cluster;
      } catch (error) {
        await cluster.stop();
        // A port found free here can be taken by another test's process before nats-server binds it: other ports.
        if (attempt === 3 || !String(error).includes('address already in use')) throw error;
      }
    }
  }

  /** `size` servers given their ports and store dirs, none started yet (nodes may be pointed at them first). */
  static async planned(size = 3): Promise<NatsCluster> {
    const root = mkdtempSync(path.join(tmpdir(), 'pairwise-nats-'));
    const members: Member[] = [];
    for (let i = 0; i < size; i++) {
      members.push({ name: `n${i + 1}`, clientPort: await freePort(), routePort: await freePort(), storeDir: path.join(root, `n${i + 1}`), output: '' });
    }
    return new NatsCluster(members, root);
  }

  /** Starts every server, without waiting for them. */
  startAll(): void {
    for (let i = 0; i < this.#members.length; i++) this.startServer(i);
  }

  /** Client URLs, one per server, in member order. */
  get urls(): string[] {
    return this.#members.map((m) => `nats://127.0.0.1:${m.clientPort}`);
  }

  /** What server `i` has written so far (for a failing test's message). */
  output(i: number): string {
    return this.#members[i]!.output;
  }

  /** Starts server `i` (again), on its ports and store dir. */
  startServer(i: number): void {
    const member = this.#members[i]!;
    if (member.process !== undefined && member.process.exitCode === null && member.process.signalCode === null) throw new Error(`${member.name} is running`);
    const routes = this.#members.map((m) => `nats://127.0.0.1:${m.routePort}`).join(',');
    const child = spawn(NATS_SERVER, natsServerArgs(member, routes, 'pairwise-test'), { stdio: ['ignore', 'pipe', 'pipe'] });
    member.output = '';
    child.stdout.on('data', (chunk: Buffer) => (member.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (member.output += chunk.toString()));
    member.process = child;
  }

  /** Kills server `i` (SIGKILL by default) and waits for it to exit. */
  async kill(i: number, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.#members[i]!.process;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }

  /** Resolves once a client reaches the cluster and JetStream answers, or throws after `timeoutMs`. */
  ready(timeoutMs = 20_000): Promise<void> {
    const exited = () => {
      const member = this.#members.find((m) => m.process?.exitCode !== null && m.process?.exitCode !== undefined);
      return member === undefined ? undefined : `nats-server ${member.name} exited with ${member.process!.exitCode}`;
    };
    return untilJetStreamAnswers(this.urls, timeoutMs, exited, () => this.#members.map((m) => m.output).join('\n'));
  }

  /** The member index of the server that leads `stream` now (its Raft leader, where writes go first). */
  async streamLeader(stream: string): Promise<number> {
    const nc = await connect({ servers: this.urls, timeout: 1_000, maxReconnectAttempts: 0 });
    try {
      const leader = (await (await jetstreamManager(nc, { timeout: 2_000 })).streams.info(stream)).cluster?.leader;
      const i = this.#members.findIndex((m) => m.name === leader);
      if (i < 0) throw new Error(`stream ${stream} has no leader among ${this.#members.map((m) => m.name).join(', ')} (${String(leader)})`);
      return i;
    } finally {
      await nc.close();
    }
  }

  /** Kills every server and removes the store dirs. */
  async stop(): Promise<void> {
    for (let i = 0; i < this.#members.length; i++) await this.kill(i);
    rmSync(this.#root, { recursive: true, force: true });
  }
}
