// `npm run cluster` (scripts/cluster.mjs) as a user runs it: 3 real nats-server processes and 3
// Pairwise nodes on free loopback ports, the demo store seeded by node 1 and served with the same
// keys by all three; a write on node 1 is read with its position on node 3; SIGINT stops every
// process it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { freePort } from '../support/child-server.js';

/** The first of three consecutive ports that nobody listens on now. */
async function freeRun(taken: Set<number>): Promise<number> {
  for (;;) {
    const first = await freePort();
    const run = [first, first + 1, first + 2];
    if (run.some((p) => taken.has(p))) continue;
    const free = await Promise.all(run.slice(1).map(isFree));
    if (free.every(Boolean)) {
      run.forEach((p) => taken.add(p));
      return first;
    }
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run cluster', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pairwise-cluster-'));
  let script: ChildProcess | undefined;
  let output = '';
  let pids: number[] = [];
  afterAll(() => {
    // After a failure: the children are in process groups of their own, and outlive the script.
    if (script !== undefined && script.exitCode === null) script.kill('SIGKILL');
    for (const pid of pids.filter(running)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  test('When it runs, then three nodes answer with one demo store, a write on node 1 is read with its position on node 3, and SIGINT ends every process it started', async () => {
    const taken = new Set<number>();
    const ports = { http: await freeRun(taken), nats: await freeRun(taken), route: await freeRun(taken) };
    script = spawn(process.execPath, ['scripts/cluster.mjs'], {
      env: {
        ...process.env,
        PAIRWISE_CLUSTER_DIR: dir,
        PAIRWISE_CLUSTER_PORT: String(ports.http),
        PAIRWISE_CLUSTER_NATS_PORT: String(ports.nats),
        PAIRWISE_CLUSTER_ROUTE_PORT: String(ports.route),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => script!.once('exit', resolve));
    script.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    script.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 150_000;
    while (!output.includes('Ctrl-C stops it all') && script.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(output, output).toContain('Ctrl-C stops it all');

    const nodes = [0, 1, 2].map((i) => `http://127.0.0.1:${ports.http + i}`);
    for (let i = 0; i < 3; i++) expect(output).toContain(`nats-${i + 1}: nats://127.0.0.1:${ports.nats + i}`);
    // One key pair for the demo store, printed by every node: nodes 2 and 3 took node 1's.
    const publicKeys = new Set([...output.matchAll(/public key \(storefront\): (pk_\S+)/g)].map((m) => m[1]));
    expect([...output.matchAll(/\[node-\d\]\s+public key \(storefront\)/g)]).toHaveLength(3);
    expect(publicKeys.size).toBe(1);
    const [key] = [...publicKeys] as [string];

    const write = await fetch(`${nodes[0]}/api/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'view', productId: '1036', sessionId: 's_cluster_test' }),
    });
    expect(write.status).toBe(200);
    const { position } = (await write.json()) as { position: string };
    const read = await fetch(`${nodes[2]}/api/recommendations?strategy=recently-viewed&sessionId=s_cluster_test&limit=1&after=${position}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await read.json()) as { products: { id: string }[]; meta: { stale?: boolean } };
    expect(body.meta.stale).not.toBe(true);
    expect(body.products[0]?.id).toBe('gid://shopify/Product/1036');

    const nodePids = await Promise.all(nodes.map(async (url) => ((await (await fetch(`${url}/healthz`)).json()) as { pid: number }).pid));
    const natsPids = [1, 2, 3].map((i) => Number(new RegExp(`^\\[nats-${i}\\] \\[(\\d+)\\]`, 'm').exec(output)?.[1]));
    pids = [...nodePids, ...natsPids];
    expect(pids.every((pid) => Number.isInteger(pid) && pid > 0 && running(pid))).toBe(true);

    script.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('every process has exited');
    expect(pids.filter(running)).toEqual([]);
  }, 180_000);
});
