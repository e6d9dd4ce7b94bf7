// Machines lost under load, past one machine: three Pairwise nodes (compiled servers as child
// processes, each with its own data dir) on one R3 stream of a real 3-server NATS cluster take a
// steady load of event batches with messageIds, sent round-robin as a client behind a load balancer
// would (a request that fails is sent again to the next node). A node is killed with SIGKILL (every
// process of it) and started again on its data dir; then a NATS server is. Afterwards every
// acknowledged messageId is a duplicate when sent again to each node, every node's log ends at the
// same position, every strategy answers alike on all three, and each node's log (read from its
// data dir once it is stopped) holds every acknowledged event, each messageId once. The run's tally
// is printed (`kill run: acknowledged …, lost …, stored twice …, refusals …`): what a request that
// acknowledged nothing was answered, which the client sent again elsewhere.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { exitReason, freePort, killIfRunning, killTree, spawnChildServer, type ChildServer } from '../../support/child-server.js';
import { NatsCluster, NODE_QUERIES } from '../../support/nats-cluster.js';
import { newShop, tempDataDir, wireProduct, withoutRecId } from '../../support/service.js';
import { storedEvents } from '../../support/stored-events.js';
import { until } from '../../support/until.js';
import { closeDatabases } from '../../../src/store/durable-commit.js';
import { openDatabases } from '../../../src/store/database.js';

/** Events in one request, and requests in flight at once (the load). */
const BATCH = 20;
const WRITERS = 3;
/** How long one batch may take to be acknowledged by some node, retries included (a bound, not a timing). */
const BATCH_BOUND_MS = 30_000;

const shop = newShop('shop-k');
let cluster: NatsCluster;

/** One Pairwise node: its data dir, port, server count and NATS URLs stay across restarts. */
interface Node {
  readonly dataDir: string;
  readonly port: string;
  readonly servers: string;
  nats?: string;
  child?: ChildServer;
}
const nodes: Node[] = [];

const nodeEnv = (node: Node) => ({
  PAIRWISE_NATS: node.nats ?? cluster.urls.join(','),
  PAIRWISE_NATS_STREAM: 'TEST_KILL',
  PAIRWISE_SERVERS: node.servers,
  PORT: node.port,
});
const urlOf = (node: Node) => `http://127.0.0.1:${node.port}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function healthy(node: Node): Promise<true | undefined> {
  const res = await fetch(`${urlOf(node)}/healthz`, { signal: AbortSignal.timeout(2_000) });
  await res.arrayBuffer();
  return res.status === 200 ? true : undefined;
}

/** Starts the node's processes on its data dir; resolves once it answers /healthz, throws (with what it said) if it does not or exits. */
async function startNode(node: Node): Promise<void> {
  const child = await spawnChildServer(node.dataDir, shop, nodeEnv(node));
  node.child = child;
  await until(`node ${node.port} healthy`, 30_000, () => healthy(node), () => exitReason(child)).catch((error: Error) => {
    throw new Error(`${error.message}\n${child.output()}`);
  });
}

/** Every process of the node killed at once (killTree), as when its machine goes. */
async function killNode(node: Node): Promise<void> {
  await killTree(node.child!);
}

/** The shop's log head as the node's /metrics says it. */
async function headOf(node: Node): Promise<number> {
  const res = await fetch(`${urlOf(node)}/metrics`, { headers: { authorization: `Bearer ${shop.secretKey}` }, signal: AbortSignal.timeout(5_000) });
  const text = await res.text();
  const match = /^pairwise_log_head_position\{[^}]*\} (\d+)$/m.exec(text);
  if (res.status !== 200 || match === null) throw new Error(`GET /metrics ${res.status}: ${text}`);
  return Number(match[1]);
}

interface Acked {
  results: { eventId: string; duplicate?: boolean }[];
  position: string;
}

/** Answers that acknowledged nothing, by kind: `503 <detail>` (the node refused it), or the connection's error. */
class Refusals {
  readonly counts = new Map<string, number>();

  add(kind: string): void {
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  get total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  toString(): string {
    return this.total === 0 ? '0' : `${this.total} (${[...this.counts].map(([kind, n]) => `${n} × ${kind}`).join('; ')})`;
  }
}

/** POST /api/events/batch to one node; undefined when it does not acknowledge (down, 503, timed out), counted in `refusals`. */
async function post(node: Node, events: Record<string, unknown>[], refusals: Refusals): Promise<Acked | undefined> {
  try {
    const res = await fetch(`${urlOf(node)}/api/events/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status === 200) return (await res.json()) as Acked;
    if (res.status !== 503) throw new Error(`POST /api/events/batch ${res.status}: ${await res.text()}`);
    const { detail } = (await res.json()) as { detail: string };
    refusals.add(`503 ${detail.replace(/\d+/g, 'n')}`);
    return undefined;
  } catch (error) {
    if ((error as Error).message.startsWith('POST')) throw error;
    // Down (ECONNREFUSED), killed mid-request (a reset), or no answer within 15 s (TimeoutError).
    refusals.add(String(((error as Error).cause as { code?: string } | undefined)?.code ?? (error as Error).name));
    return undefined; // the client sends it again elsewhere
  }
}

/** Sends the batch to node `first`, then the next and so on until one acknowledges it (bounded). */
async function send(events: Record<string, unknown>[], first: number, refusals: Refusals): Promise<Acked> {
  const deadline = Date.now() + BATCH_BOUND_MS;
  for (let i = first; Date.now() < deadline; i++) {
    const acked = await post(nodes[i % nodes.length]!, events, refusals);
    if (acked !== undefined) return acked;
    await sleep(50);
  }
  throw new Error(`a batch was acknowledged by no node within ${BATCH_BOUND_MS} ms`);
}

/** Batch `n`: views and purchases over products 1 to 8 from a few sessions and customers, every event with its messageId. */
function batchOf(n: number): Record<string, unknown>[] {
  return Array.from({ length: BATCH }, (_, i) => {
    const k = n * BATCH + i;
    const session = `s${k % 7}`;
    const base = { productId: String(1 + ((k * 5) % 8)), sessionId: session, messageId: `kill-${n}-${i}`, ...(k % 3 === 0 ? { customerId: `cust-${k % 4}` } : {}) };
    return k % 4 === 0 ? { ...base, type: 'purchase', metadata: { orderId: `o-${n}-${Math.floor(i / 4)}` } } : { ...base, type: 'view' };
  });
}

/** The steady load: WRITERS loops, round-robin over the nodes, recording every acknowledged batch. */
class Load {
  readonly acked: { events: Record<string, unknown>[]; ack: Acked }[] = [];
  readonly refusals = new Refusals();
  #next = 0;
  #stopped = false;
  #loops: Promise<void>[] = [];

  start(): void {
    this.#loops = Array.from({ length: WRITERS }, () => this.#loop());
  }

  async #loop(): Promise<void> {
    while (!this.#stopped) {
      const n = this.#next++;
      const events = batchOf(n);
      this.acked.push({ events, ack: await send(events, n, this.refusals) });
    }
  }

  /** Resolves once `count` more batches are acknowledged (bounded). */
  async more(count: number): Promise<void> {
    const target = this.acked.length + count;
    await until(`${count} more acknowledged batches`, 30_000, async () => (this.acked.length >= target ? true : undefined)).catch((error: Error) => {
      const nats = [0, 1, 2].map((i) => `nats-server n${i + 1}: ${cluster.output(i).slice(-3_000)}`).join('\n');
      throw new Error(`${error.message} (${this.acked.length} so far, refusals ${this.refusals}); the nodes said:\n${nodes.map((node) => `${node.port}: ${node.child?.output().slice(-3_000)}`).join('\n')}\n${nats}`);
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#loops);
  }
}

beforeAll(async () => {
  cluster = await NatsCluster.start(3);
  // The second node runs two server processes: one follows the stream under the data dir's lease.
  for (const servers of ['1', '2', '1']) nodes.push({ dataDir: tempDataDir(), port: String(await freePort()), servers });
  // The first node is given only the URL of the server leading the stream (the client learns the
  // others from it): the NATS server killed below is that one, so this node's connection, its
  // follower's consumer and the stream's leader all move at once.
  await startNode(nodes[1]!);
  await startNode(nodes[2]!);
  nodes[0]!.nats = cluster.urls[await cluster.streamLeader('TEST_KILL')];
  await startNode(nodes[0]!);
  const res = await fetch(`${urlOf(nodes[0]!)}/api/products`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ products: Array.from({ length: 8 }, (_, i) => wireProduct(String(i + 1), { collections: [i % 2 ? 'c1' : 'c2'], tags: [`t${i % 3}`] })) }),
  });
  expect(res.status).toBe(200);
}, 90_000);

afterAll(async () => {
  for (const node of nodes) if (node.child !== undefined) await killIfRunning(node.child);
  for (const node of nodes) rmSync(node.dataDir, { recursive: true, force: true });
  await cluster?.stop();
});

/**
 * Kills the node (SIGKILL) and starts it again on its data dir once `meanwhile` has run; resolves
 * once it answers /healthz, checking that its log then holds what the other nodes held before it
 * was started (it catches up before it listens).
 */
async function restartNode(node: Node, meanwhile: () => Promise<void>): Promise<void> {
  await killNode(node);
  await meanwhile();
  const others = nodes.filter((other) => other !== node);
  const before = Math.max(...(await Promise.all(others.map(headOf))));
  await startNode(node);
  expect(await headOf(node)).toBeGreaterThanOrEqual(before);
}

test('When a node and then a NATS server are killed under load, then nothing acknowledged is lost or stored twice, and every node answers alike', async () => {
  const load = new Load();
  load.start();
  await load.more(10);

  // (1) A Pairwise node lost mid-load (both its processes, its follower lease left held in its
  // LMDB): the others take its share; started again on its data dir, it listens only once caught up.
  await restartNode(nodes[1]!, () => load.more(10));
  await load.more(10);

  // (2) The NATS server leading the stream lost mid-load (R3 keeps its quorum): writes go on, and a
  // node started while it is down starts (the stream's replicas are 3, though only 2 servers are up).
  const server = await cluster.streamLeader('TEST_KILL');
  await cluster.kill(server);
  await load.more(10);
  await restartNode(nodes[2]!, () => load.more(5));
  await load.more(5);
  cluster.startServer(server);
  await load.more(10);
  await load.stop();

  // Every acknowledged messageId, sent again to each node, is a duplicate of what was stored.
  const resent = new Refusals();
  const notRecognised: string[] = [];
  for (const { events, ack } of load.acked) {
    for (let first = 0; first < nodes.length; first++) {
      const again = await send(events, first, resent);
      events.forEach((event, i) => {
        if (again.results[i]!.duplicate !== true || again.results[i]!.eventId !== ack.results[i]!.eventId) notRecognised.push(`${String(event.messageId)} at node ${first + 1}`);
      });
    }
  }

  // Every node's log ends at the same position, and every strategy answers alike on all three.
  const last = load.acked.map(({ ack }) => ack.position).sort((a, b) => parseInt(a.split('.')[1]!, 36) - parseInt(b.split('.')[1]!, 36)).at(-1)!;
  const answers = await Promise.all(nodes.map(async (node) => {
    const answered = await Promise.all(NODE_QUERIES.map(async (query) => {
      const res = await fetch(`${urlOf(node)}/api/recommendations?${query}&after=${last}`, { headers: { authorization: `Bearer ${shop.secretKey}` } });
      expect(res.status).toBe(200);
      return withoutRecId((await res.json()) as { meta: Record<string, unknown> });
    }));
    return { head: await headOf(node), answered };
  }));

  // What each node's log holds (read once they are stopped): every acknowledged event once.
  for (const node of nodes) await killNode(node);
  const tallies = await Promise.all(nodes.map((node) => tally(node, load.acked)));
  const acknowledged = load.acked.length * BATCH;
  console.log(`kill run: acknowledged ${acknowledged} events (${load.acked.length} batches); ${tallies.map((t, i) => `node ${i + 1}: lost ${t.lost.length}, stored twice ${t.twice.length}`).join('; ')}; ` +
    `sent again and not recognised ${notRecognised.length}; refusals under load ${load.refusals}; refusals sent again ${resent}`);
  expect(tallies.map((t) => t.lost)).toEqual(nodes.map(() => []));
  expect(tallies.map((t) => t.twice)).toEqual(nodes.map(() => []));
  expect(notRecognised).toEqual([]);
  expect(new Set(answers.map((a) => a.head)).size).toBe(1);
  expect(answers[1]!.answered).toEqual(answers[0]!.answered);
  expect(answers[2]!.answered).toEqual(answers[0]!.answered);
}, 180_000);

/**
 * In the node's log (its data dir, the node stopped): the acknowledged events whose eventId it
 * does not hold (lost), and the messageIds it holds more than once (stored twice).
 */
async function tally(node: Node, acked: Load['acked']): Promise<{ lost: string[]; twice: string[] }> {
  const dbs = openDatabases(path.join(node.dataDir, 'db'));
  try {
    const stored = storedEvents(dbs, shop.shopId);
    const eventIds = new Set(stored.map((e) => e.eventId));
    const copies = new Map<string, number>();
    for (const { event } of stored) if (event.messageId !== undefined) copies.set(event.messageId, (copies.get(event.messageId) ?? 0) + 1);
    const lost = acked.flatMap(({ events, ack }) => events.flatMap((event, i) => (eventIds.has(ack.results[i]!.eventId) ? [] : [String(event.messageId)])));
    return { lost, twice: [...copies].filter(([, n]) => n > 1).map(([messageId]) => messageId) };
  } finally {
    await closeDatabases(dbs);
  }
}
