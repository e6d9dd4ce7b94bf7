// The storefront budget past one machine: two Pairwise nodes on one JetStream stream (a 3-server
// NATS cluster, R3). The budget is counted where each node's follower materializes the stream, in
// stream order, so writes taken by both nodes stop at the budget together and every node holds the
// same count; a node that already sees the budget spent refuses without publishing.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { materializedThrough } from '../../../src/store/jetstream/log-follower.js';
import { newShop, startTestService, type TestService } from '../../support/service.js';
import { NatsCluster } from '../../support/nats-cluster.js';

describe('the storefront budget on a replicated log', () => {
  let cluster: NatsCluster;
  const nodes: TestService[] = [];
  const shop = newShop('shop-q');
  // One clock for both nodes: the day is the writer's (its receivedAt), the same here.
  const now = Date.parse('2026-03-01T12:00:00.000Z');

  beforeAll(async () => {
    cluster = await NatsCluster.start(3);
    const env = { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: 'TEST_QUOTA', PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '6' };
    for (let i = 0; i < 2; i++) nodes.push(await startTestService({ shop, env, clock: () => now }));
  }, 90_000);
  afterAll(async () => {
    for (const node of nodes) await node.cleanup();
    await cluster?.stop();
  });

  test('When both nodes take public-key events, then together they store the budget, and every node counts it alike', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        nodes[i % 2]!.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: String(i), sessionId: 's', messageId: `m${i}` }) }).then(async (res) => {
          if (res.status !== 200) expect((await res.json()).code).toBe('storefront_quota');
          return res.status;
        }),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(6);

    const counts = await Promise.all(nodes.map(async (node) => {
      const metrics = await (await node.fetch('/metrics', { key: shop.secretKey })).text();
      return Number(/^pairwise_storefront_events_today\{shop="shop-q"\} (\d+)$/m.exec(metrics)![1]);
    }));
    expect(counts).toEqual([6, 6]);
    expect(nodes[0]!.service.shopLog.head(shop.shopId, true)).toBe(nodes[1]!.service.shopLog.head(shop.shopId, true));

    // Spent as this node sees it: refused before anything is published.
    const published = materializedThrough(nodes[0]!.service.dbs);
    expect((await nodes[0]!.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '1', sessionId: 's' }) })).status).toBe(429);
    expect(materializedThrough(nodes[0]!.service.dbs)).toBe(published);
  });
});
