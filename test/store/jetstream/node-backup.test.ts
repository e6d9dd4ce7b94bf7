// A node started on an empty data dir after the stream's retention dropped its first messages: it
// restores the latest node backup, reads the stream from the sequence after it, and holds the same
// log and models as the node that published the backup.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { materializedThrough } from '../../../src/store/jetstream/log-follower.js';
import { NatsCluster } from '../../support/nats-cluster.js';
import { newShop, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../../support/service.js';

const STREAM = 'TEST_BACKUP';
let cluster: NatsCluster;
let nc: NatsConnection;
const nodes: TestService[] = [];
const shop = newShop('shop-b');
const env = () => ({ PAIRWISE_NATS: cluster.urls.join(','), PAIRWISE_NATS_STREAM: STREAM, PAIRWISE_NATS_BACKUP_MINUTES: '0' });

beforeAll(async () => {
  cluster = await NatsCluster.start(3);
  nc = await connect({ servers: cluster.urls });
}, 60_000);
afterAll(async () => {
  for (const node of nodes) await node.cleanup();
  await nc?.close();
  await cluster?.stop();
});

const purchases = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => [
    { type: 'purchase', productId: String(((from + i) % 5) + 1), sessionId: `s${from + i}`, customerId: `c${(from + i) % 4}`, metadata: { orderId: `o${from + i}` } },
    { type: 'purchase', productId: String(((from + i + 2) % 5) + 1), sessionId: `s${from + i}`, customerId: `c${(from + i) % 4}`, metadata: { orderId: `o${from + i}` } },
  ]).flat();

test('When the stream no longer holds its first messages, then a new node starts from the latest node backup and ends like the others', async () => {
  const first = await startTestService({ shop, env: env() });
  nodes.push(first);
  await putProducts(first, [1, 2, 3, 4, 5].map((i) => wireProduct(String(i))));
  await postEvents(first, purchases(0, 30), shop.secretKey);

  const backup = await first.service.replicated!.publishBackup();
  expect(backup.seq).toBe(materializedThrough(first.service.dbs));
  // The stream's retention drops everything the backup holds.
  const jsm = await jetstreamManager(nc);
  await jsm.streams.purge(STREAM, { seq: backup.seq + 1 });
  expect((await jsm.streams.info(STREAM)).state.first_seq).toBe(backup.seq + 1);
  await postEvents(first, purchases(30, 10), shop.secretKey);

  const fresh = await startTestService({ shop, env: env() });
  nodes.push(fresh);
  first.service.dbs.root.resetReadTxn();
  expect(materializedThrough(fresh.service.dbs)).toBe(materializedThrough(first.service.dbs));
  expect(fresh.service.shopLog.head(shop.shopId)).toBe(first.service.shopLog.head(shop.shopId, true));
  const parts = [first, fresh].map((node) => node.service.engines.get(shop.shopId).snapshot() as unknown as Record<string, unknown>);
  // Every model alike (the change counter behind the answer cache's stamps counts this process's own work since its start).
  for (const key of Object.keys(parts[0]!)) if (key !== 'changes') expect(parts[1]![key], `engine part ${key}`).toEqual(parts[0]![key]);
  for (const query of ['strategy=trending', 'strategy=bought-together&productId=1', 'customerId=c1']) {
    expect(await recommendations(fresh, query, shop.secretKey)).toEqual(await recommendations(first, query, shop.secretKey));
  }
}, 90_000);
