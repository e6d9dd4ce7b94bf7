// A node whose follower has a commit refused (a full disk for a moment) while later messages'
// commits are under way: it never steps over the refused message, and ends with the same log as
// a node whose commits all went through.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { CommitControl } from '../../support/commit-control.js';
import { NatsCluster } from '../../support/nats-cluster.js';
import { newShop, postEvents, putProducts, startTestService, wireProduct, type TestService } from '../../support/service.js';

let cluster: NatsCluster;
const nodes: TestService[] = [];
const shop = newShop('shop-f');
const control = new CommitControl();

beforeAll(async () => {
  cluster = await NatsCluster.start(3);
  const env = { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: 'TEST_FOLLOWER' };
  nodes.push(await startTestService({ shop, env }));
  nodes.push(await startTestService({ shop, env, committer: control.committer }));
  await putProducts(nodes[0]!, [wireProduct('1'), wireProduct('2'), wireProduct('3')]);
}, 90_000);
afterAll(async () => {
  for (const node of nodes) await node.cleanup();
  await cluster?.stop();
});

function logOf(node: TestService): string[] {
  return [...node.service.shopLog.read(shop.shopId)].map((r) => `${r.position} ${r.event?.sessionId ?? r.change?.kind}`);
}

test('When one of its commits is refused among many under way, then the follower reads again from there and its log ends like every other node\'s', async () => {
  const [writer, refusing] = nodes as [TestService, TestService];
  let commits = 0;
  control.refuseCommits(() => ++commits === 4);
  // Many small writes at once: the follower has many commits under way together.
  await Promise.all(Array.from({ length: 40 }, (_, i) => postEvents(writer, [{ type: 'view', productId: String((i % 3) + 1), sessionId: `s${i}` }], shop.secretKey)));
  expect(control.refused).toBe(1);
  control.refuseCommits();
  const head = writer.service.shopLog.head(shop.shopId, true);
  const deadline = Date.now() + 20_000;
  while (refusing.service.shopLog.head(shop.shopId, true) < head && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(logOf(refusing)).toEqual(logOf(writer));
}, 60_000);
