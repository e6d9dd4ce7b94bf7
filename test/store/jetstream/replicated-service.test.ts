// Three Pairwise nodes on one JetStream stream (a real 3-server nats-server cluster, R3), each with
// its own data dir: a write on one node is read with its position on another, every node answers
// alike, a messageId sent to two nodes is stored once, and a node started on an empty data dir
// catches up before it answers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatPosition } from '../../../src/api/position-token.js';
import type { EaseFit } from '../../../src/engine/ease/ease-model.js';
import { toPortable } from '../../../src/engine/ease/portable-fit.js';
import { refitEase } from '../../../src/ingest/ease-refit.js';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { materializedThrough } from '../../../src/store/jetstream/log-follower.js';
import { encodeMessage } from '../../../src/store/jetstream/log-message.js';
import { shopSubject } from '../../../src/store/jetstream/log-stream.js';
import { ids, newShop, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../../support/service.js';
import { NatsCluster, NODE_QUERIES } from '../../support/nats-cluster.js';


describe('three nodes on one replicated log', () => {
  let cluster: NatsCluster;
  const nodes: TestService[] = [];
  const shop = newShop('shop-r');
  const start = async (dataDir?: string) => {
    const node = await startTestService({ shop, ...(dataDir === undefined ? {} : { dataDir }), env: { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: 'TEST_NODES' } });
    nodes.push(node);
    return node;
  };
  const answersOf = (node: TestService) => Promise.all(NODE_QUERIES.map((q) => recommendations(node, q, shop.secretKey)));

  beforeAll(async () => {
    cluster = await NatsCluster.start(3);
    for (let i = 0; i < 3; i++) await start();
  }, 90_000);
  afterAll(async () => {
    for (const node of nodes) await node.cleanup();
    await cluster?.stop();
  });

  test('When a node takes a write, then another node read with its position sees it, and every node answers alike', async () => {
    const [one, two, three] = nodes as [TestService, TestService, TestService];
    await putProducts(one, Array.from({ length: 8 }, (_, i) => wireProduct(String(i + 1), { collections: [i % 2 ? 'c1' : 'c2'], tags: [`t${i % 3}`] })));
    const batch = (await postEvents(two, [
      { type: 'purchase', productId: '1', sessionId: 's1', customerId: 'cust-1', metadata: { orderId: 'o1' } },
      { type: 'purchase', productId: '3', sessionId: 's1', customerId: 'cust-1', metadata: { orderId: 'o1' } },
      { type: 'view', productId: '5', sessionId: 's1', customerId: 'cust-1' },
      { type: 'purchase', productId: '1', sessionId: 's2', metadata: { orderId: 'o2' } },
      { type: 'purchase', productId: '3', sessionId: 's2', metadata: { orderId: 'o2' } },
    ], shop.secretKey)) as { position: string };
    expect(batch.position).toMatch(/^[a-z0-9]{8}\.[0-9a-z]+$/);

    // Read your write on a node that did not take it: it waits (bounded) for that position.
    const viewed = await recommendations(three, `strategy=recently-viewed&sessionId=s1&after=${batch.position}`);
    expect(viewed.meta.stale).not.toBe(true);
    expect(ids(viewed)).toContain('5');
    const together = await recommendations(three, `strategy=bought-together&productId=1&after=${batch.position}`);
    expect(ids(together)[0]).toBe('3');

    // Once every node holds the whole stream, every strategy answers alike everywhere.
    const heads = await Promise.all(nodes.map(async (node) => {
      await recommendations(node, `strategy=trending&after=${batch.position}`);
      return node.service.shopLog.head(shop.shopId, true);
    }));
    expect(new Set(heads).size).toBe(1);
    const [a, b, c] = [await answersOf(one), await answersOf(two), await answersOf(three)];
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    // Not only the answers: the models themselves are the same on every node (each part of the engine's snapshot).
    const parts = nodes.map((node) => node.service.engines.get(shop.shopId).snapshot() as unknown as Record<string, unknown>);
    for (const key of Object.keys(parts[0]!)) {
      expect(parts[1]![key], `engine part ${key}`).toEqual(parts[0]![key]);
      expect(parts[2]![key], `engine part ${key}`).toEqual(parts[0]![key]);
    }
  });

  test('When one messageId is sent to two nodes, then it is stored once, and both say so alike', async () => {
    const [one, two] = nodes as [TestService, TestService];
    const event = { type: 'view', productId: '2', sessionId: 's9', messageId: 'order-77-line-1' };
    const [first, second] = await Promise.all([one, two].map(async (node) => (await postEvents(node, [event], shop.secretKey)) as { results: { eventId: string; duplicate?: boolean }[] }));
    const results = [first!.results[0]!, second!.results[0]!];
    expect(results.filter((r) => r.duplicate === true)).toHaveLength(1);
    expect(results[0]!.eventId).toBe(results[1]!.eventId);
    const stored = [...one.service.shopLog.read(shop.shopId)].filter((r) => r.event?.messageId === 'order-77-line-1');
    expect(stored).toHaveLength(1);
  });

  test('When one node publishes an EASE fit, then every node installs it at the same position (its rows carried by the object store)', async () => {
    const [one, , three] = nodes as [TestService, TestService, TestService];
    const engine = one.service.engines.get(shop.shopId);
    let fit: EaseFit | undefined;
    await refitEase(engine, { maxItems: 100, neighbors: 8, lambda: 1 }, undefined, (made) => (fit = made));
    expect(fit).toBeDefined();
    const position = await one.service.shopLog.publishEaseFit(shop.shopId, toPortable(engine.catalog, fit!), one.service.engines.position(shop.shopId), Date.now());
    await recommendations(three, `strategy=trending&after=${formatPosition(three.service.dbs.meta.get('logId')!, position)}`);
    for (const node of nodes) {
      await recommendations(node, `strategy=trending&after=${formatPosition(node.service.dbs.meta.get('logId')!, position)}`);
      expect(node.service.engines.get(shop.shopId).ease.size).toBe(fit!.items.length);
    }
    expect(three.service.shopLog.easeFit(shop.shopId, position)).toEqual(one.service.shopLog.easeFit(shop.shopId, position));
  });

  test('When a node stops after the stream took its write but before its own log did, then it writes it before it answers again, and the messageId sent again is a duplicate on every node', async () => {
    // The state a node killed between the stream's acknowledgement and its follower's commit
    // leaves: the message in the stream (published here as that node would have), not in its log.
    // Its client had no answer and sends the event again, to it once it is back and to another node.
    const [one, , three] = nodes as [TestService, TestService, TestService];
    await three.stop();
    const eventId = 'evt_01J00000000000000000000000';
    const event = { type: 'view' as const, productId: '4', sessionId: 's7', messageId: 'cut-off-1', timestamp: Date.now(), sender: 'secret' as const };
    const nc = await connect({ servers: cluster.urls });
    try {
      const message = encodeMessage({ kind: 'events', events: [{ eventId, event }], receivedAt: Date.now(), dedupSince: Date.now() - 7 * 86_400_000, sender: 'secret' });
      await jetstream(nc).publish(shopSubject('pairwise.TEST_NODES', shop.shopId), message, { msgID: 'cut-off-node-0' });
    } finally {
      await nc.close();
    }
    const back = await startTestService({ shop, dataDir: three.dataDir, env: { PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: 'TEST_NODES' } });
    nodes[2] = back;
    const sent = { type: 'view', productId: '4', sessionId: 's7', messageId: 'cut-off-1' };
    for (const node of [back, one]) {
      const again = (await postEvents(node, [sent], shop.secretKey)) as { results: { eventId: string; duplicate?: boolean }[] };
      expect(again.results).toMatchObject([{ eventId, duplicate: true }]);
    }
    for (const node of [back, one]) {
      expect([...node.service.shopLog.read(shop.shopId)].filter((r) => r.event?.messageId === 'cut-off-1').map((r) => r.eventId)).toEqual([eventId]);
    }
  });

  test('When a node starts on an empty data dir, then it catches up with the stream before it answers, and answers like the others', async () => {
    const old = nodes[0]!.service.dbs;
    old.root.resetReadTxn();
    const through = materializedThrough(old);
    const fresh = await start();
    // Its own start (the shop and keys it is told of, all there already) publishes nothing.
    expect(materializedThrough(fresh.service.dbs)).toBe(through);
    expect(fresh.service.shopLog.head(shop.shopId)).toBe(nodes[0]!.service.shopLog.head(shop.shopId, true));
    expect(await answersOf(fresh)).toEqual(await answersOf(nodes[0]!));
  });
});
