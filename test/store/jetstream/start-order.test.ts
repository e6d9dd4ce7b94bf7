// Started in any order, as an orchestrator starts them: three compiled nodes (one a supervisor of
// two server processes) started before their three NATS servers, at the same moment, or just after
// the servers formed their cluster, on a quiet machine and on one whose every core is kept busy. A node that cannot reach NATS, or finds its
// cluster still forming (no JetStream yet, no leader, the stream not placed), says so at each
// attempt and waits; it does not listen meanwhile (/healthz is refused, so no load balancer sends
// it anything), and listens once it has the stream. Then every node takes writes to one log.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { afterEach, describe, expect, test } from 'vitest';
import { exitReason, killIfRunning, spawnChildServer, type ChildServer } from '../../support/child-server.js';
import { NatsCluster } from '../../support/nats-cluster.js';
import { newShop, tempDataDir } from '../../support/service.js';
import { until } from '../../support/until.js';

const STREAM = 'TEST_ORDER';
/** Bounds for what another process does (never timings the test asserts): generous, as the machine may be loaded. */
const SAY_MS = 30_000;
const HEALTHY_MS = 90_000;

let cluster: NatsCluster | undefined;
let nodes: ChildServer[] = [];
let dataDirs: string[] = [];
let burners: ChildProcess[] = [];

afterEach(async () => {
  for (const burner of burners) burner.kill('SIGKILL');
  burners = [];
  for (const node of nodes) await killIfRunning(node);
  nodes = [];
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  dataDirs = [];
  await cluster?.stop();
  cluster = undefined;
});

/** Keeps every core busy: one child spinning per core, at this process's priority. */
function loadTheMachine(): void {
  burners = Array.from({ length: availableParallelism() }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/** Three nodes on the planned cluster, the second with two server processes. */
async function spawnNodes(shop: ReturnType<typeof newShop>): Promise<ChildServer[]> {
  const env = { PAIRWISE_NATS: cluster!.urls.join(','), PAIRWISE_NATS_STREAM: STREAM };
  dataDirs = ['1', '2', '1'].map(() => tempDataDir());
  return Promise.all(['1', '2', '1'].map((servers, i) => spawnChildServer(dataDirs[i]!, shop, { ...env, PAIRWISE_SERVERS: servers })));
}

/** Resolves once `check` holds for the node; throws after `ms`, or at once if it exits, with what it said. */
async function untilNode(node: ChildServer, what: string, ms: number, check: () => Promise<true | undefined>): Promise<void> {
  await until(`${node.url}: ${what}`, ms, check, () => exitReason(node)).catch((error: Error) => {
    throw new Error(`${error.message}; it said:\n${node.output()}`);
  });
}

/** What GET /healthz gets from the node: its status, or the connection's error code (ECONNREFUSED: it does not listen). */
async function healthz(node: ChildServer): Promise<number | string> {
  return fetch(`${node.url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
    async (res) => (await res.arrayBuffer(), res.status),
    (error: Error) => String((error.cause as { code?: string } | undefined)?.code ?? error.name),
  );
}

async function untilHealthy(node: ChildServer): Promise<void> {
  await untilNode(node, 'healthy', HEALTHY_MS, async () => ((await healthz(node)) === 200 ? true : undefined));
}

/** Every node takes a write; the same messageId sent to each other node is a duplicate (one log), and the stream has 3 replicas. */
async function expectOneLog(shop: ReturnType<typeof newShop>): Promise<void> {
  const post = (node: ChildServer, messageId: string) =>
    fetch(`${node.url}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'view', productId: '1', sessionId: 's1', messageId }),
    });
  for (const [i, node] of nodes.entries()) {
    const first = await post(node, `m${i}`);
    expect(first.status, await first.clone().text()).toBe(200);
    const again = await post(nodes[(i + 1) % nodes.length]!, `m${i}`);
    expect(((await again.json()) as { duplicate?: boolean }).duplicate).toBe(true);
  }
  // The starts' probes of the stream (a publish its leader refuses) stored nothing.
  for (const node of nodes) expect(node.output()).not.toContain('not a Pairwise message');
  const nc = await connect({ servers: cluster!.urls, maxReconnectAttempts: 0 });
  try {
    expect((await (await jetstreamManager(nc)).streams.info(STREAM)).config.num_replicas).toBe(3);
  } finally {
    await nc.close();
  }
}

/**
 * Plans the NATS cluster (none of its servers started), loads the machine if asked, runs `start`
 * (which starts the servers and the nodes in its order), then expects every node healthy and
 * serving one log.
 */
async function startedInOrder(loaded: boolean, start: (shop: ReturnType<typeof newShop>) => Promise<void>): Promise<void> {
  if (loaded) loadTheMachine();
  const shop = newShop('shop-o');
  cluster = await NatsCluster.planned(3);
  await start(shop);
  for (const node of nodes) await untilHealthy(node);
  await expectOneLog(shop);
}

describe.each([
  ['a quiet machine', false],
  ['a loaded machine', true],
])('on %s', (_, loaded) => {
  test('When the nodes start before their NATS servers, then each names every attempt, does not listen meanwhile, and listens once the cluster has formed', async () => {
    await startedInOrder(loaded, async (shop) => {
      nodes = await spawnNodes(shop);
      // Two attempts named by every node (the second after a wait), and none listening.
      for (const node of nodes) {
        await untilNode(node, 'a second attempt named', SAY_MS, async () => (/cannot reach NATS at .*attempt 2: /.test(node.output()) ? true : undefined));
        expect(node.output()).toMatch(/cannot reach NATS at .*\(attempt 1: .*\); trying again in 1 s/);
        expect(await healthz(node)).toBe('ECONNREFUSED');
      }
      cluster!.startAll();
    });
  }, 240_000);

  test('When the nodes start at the same moment as their NATS servers, then each waits for the cluster to form and listens once it has the stream', async () => {
    await startedInOrder(loaded, async (shop) => {
      cluster!.startAll();
      nodes = await spawnNodes(shop);
    });
  }, 240_000);

  test('When the nodes start once their NATS cluster has formed, then the one that creates the stream waits for its leader before its first write', async () => {
    await startedInOrder(loaded, async (shop) => {
      cluster!.startAll();
      await cluster!.ready();
      // The stream, created by the first node to ask, has no leader for a moment: a publish then
      // may find no one to take it ("jetstream is not enabled"), and the start's first write is one.
      nodes = await spawnNodes(shop);
    });
  }, 240_000);
});
