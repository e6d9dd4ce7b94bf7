// A customer's erasure past one machine: two Pairwise nodes on one JetStream stream (a 3-server
// NATS cluster, R3). Each node's follower turns the erasure into its change in its own log, so
// both logs lose the customer's events and those their sessions sent without the customerId, and
// after each node's housekeeping round (a snapshot, then the erasure rewritten without its names)
// neither log names them. The stream itself keeps the messages it was sent until its retention.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LAST_POSITION } from '../../../src/store/database.js';
import { newShop, postEvents, putProducts, startTestService, wireProduct, type TestService } from '../../support/service.js';
import { NatsCluster } from '../../support/nats-cluster.js';

describe('customer erasure on a replicated log', () => {
  let cluster: NatsCluster;
  const nodes: TestService[] = [];
  const shop = newShop('shop-e');

  beforeAll(async () => {
    cluster = await NatsCluster.start(3);
    const env = { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: 'TEST_ERASURE' };
    for (let i = 0; i < 2; i++) nodes.push(await startTestService({ shop, env }));
  }, 90_000);
  afterAll(async () => {
    for (const node of nodes) await node.cleanup();
    await cluster?.stop();
  });

  /** Whether any stored byte of the node's log spells `text`. */
  const spells = (node: TestService, text: string) =>
    [...node.service.dbs.log.getKeys({ start: [shop.shopId, 0], end: [shop.shopId, LAST_POSITION] })].some((key) => node.service.dbs.log.getBinary(key)!.includes(Buffer.from(text)));

  test('When a customer is erased through one node, then every node drops their sessions’ events, and after its housekeeping no node’s log names them', async () => {
    const [one, two] = nodes as [TestService, TestService];
    await putProducts(one, ['1', '2', '3'].map((id) => wireProduct(id)));
    await postEvents(one, [{ type: 'view', productId: '1', sessionId: 'repl-before-login' }]);
    await postEvents(one, [
      { type: 'view', productId: '2', sessionId: 'repl-before-login', customerId: 'repl-cust-93' },
      { type: 'view', productId: '3', sessionId: 'repl-stranger' },
    ], shop.secretKey);

    const res = await two.fetch('/api/customers/repl-cust-93', { method: 'DELETE', key: shop.secretKey });
    const erased = (await res.json()) as { events: number; position: string };
    expect(erased.events).toBe(2);

    for (const node of nodes) {
      await node.fetch(`/api/recommendations?strategy=trending&after=${erased.position}`);
      const sessions = [...node.service.shopLog.read(shop.shopId)].flatMap((r) => (r.event === undefined ? [] : [r.event.sessionId]));
      expect(sessions).toEqual(['repl-stranger']);
      await node.service.pruneLog();
      for (const name of ['repl-cust-93', 'repl-before-login']) expect(spells(node, name), name).toBe(false);
    }
    expect(one.service.shopLog.head(shop.shopId, true)).toBe(two.service.shopLog.head(shop.shopId, true));
  });
});
