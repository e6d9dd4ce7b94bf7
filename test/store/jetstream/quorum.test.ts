// A node on a 3-server NATS cluster when servers go: one of three lost, writes go on; two lost (no
// quorum for the R3 stream), writes are refused at once with 503 and Retry-After, reads are still
// answered and /healthz says degraded; a server back, writes resume by themselves.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newShop, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../../support/service.js';
import { NatsCluster } from '../../support/nats-cluster.js';

let cluster: NatsCluster;
let node: TestService;
const shop = newShop('shop-q');

beforeAll(async () => {
  cluster = await NatsCluster.start(3);
  node = await startTestService({ shop, env: { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: 'TEST_QUORUM' } });
  await putProducts(node, [wireProduct('1'), wireProduct('2')]);
}, 90_000);
afterAll(async () => {
  await node?.cleanup();
  await cluster?.stop();
});

const view = (n: number) => node.fetch('/api/events', { method: 'POST', key: shop.secretKey, body: JSON.stringify({ type: 'view', productId: '1', sessionId: `s${n}`, messageId: `m${n}` }) });

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/** /metrics' pairwise_log_writable of the node's one server process. */
async function writable(): Promise<number> {
  const text = await (await node.fetch('/metrics', { key: shop.secretKey })).text();
  return Number(/^pairwise_log_writable\{server="1"\} ([01])$/m.exec(text)?.[1]);
}

async function health(): Promise<{ status: string; problems?: string[] }> {
  return (await (await fetch(`${node.url}/healthz`)).json()) as { status: string; problems?: string[] };
}

test('When NATS servers are lost, then writes go on with a quorum, are refused quickly without one while reads are served, and resume when it is back', async () => {
  expect((await view(1)).status).toBe(200);

  // One of three lost: the stream keeps a quorum; a write may need the client's reconnect, then goes through.
  await cluster.kill(0);
  // (If it led the stream, its leader is elected again first: seconds on a busy machine.)
  expect(await until(async () => (await view(2)).status === 200, 40_000)).toBe(true);

  // Two of three lost: no quorum.
  await cluster.kill(1);
  let refused: Response | undefined;
  expect(await until(async () => (refused = await view(3)).status === 503, 15_000)).toBe(true);
  const started = Date.now();
  const again = await view(4);
  const took = Date.now() - started;
  expect(again.status).toBe(503);
  expect(took).toBeLessThan(5_000); // refused, not left hanging (a publish waits 1 s for its acknowledgement)
  expect(again.headers.get('retry-after')).toBe('1');
  expect(again.headers.get('content-type')).toContain('application/problem+json');
  expect(((await again.json()) as { code: string }).code).toBe('unavailable');
  expect(refused!.status).toBe(503);
  // Reads are served from the node's copy of the log.
  expect((await recommendations(node, 'strategy=trending')).products.length).toBeGreaterThan(0);
  expect(await until(async () => (await health()).status === 'degraded', 10_000)).toBe(true);
  expect((await health()).problems?.join(' ')).toMatch(/takes no writes|not connected/);
  expect(await writable()).toBe(0);

  // A server back: the quorum returns and writes resume by themselves; what was acknowledged is there once.
  cluster.startServer(1);
  expect(await until(async () => (await view(5)).status === 200, 30_000)).toBe(true);
  expect(await until(async () => (await health()).status === 'ok', 10_000)).toBe(true);
  expect(await writable()).toBe(1);
  const repeat = (await (await view(1)).json()) as { duplicate?: boolean };
  expect(repeat.duplicate).toBe(true);
}, 120_000);
