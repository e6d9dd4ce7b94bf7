// The cluster-wide lease in a JetStream key-value bucket of a real 3-server cluster.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ClusterLease } from '../../../src/store/jetstream/cluster-lease.js';
import { connectToLog } from '../../../src/store/jetstream/connection.js';
import { NatsCluster } from '../../support/nats-cluster.js';

let cluster: NatsCluster;
let nc: NatsConnection;
beforeAll(async () => {
  cluster = await NatsCluster.start(3);
  nc = await connectToLog(cluster.urls, { name: 'test', report: () => {} });
}, 60_000);
afterAll(async () => {
  await nc?.close();
  await cluster?.stop();
});

test('When two processes want the cluster lease, then one holds it while it renews, the other takes it once it runs out or is released', async () => {
  const kv = await new Kvm(jetstream(nc)).create('TEST_LEASES', { replicas: 3, history: 1 });
  let now = 1_000_000;
  const clock = () => now;
  const changes: string[] = [];
  const a = new ClusterLease(kv, 'refits', 10_000, clock, (held) => changes.push(`a ${held}`));
  const b = new ClusterLease(kv, 'refits', 10_000, clock, (held) => changes.push(`b ${held}`));

  expect(await a.renew()).toBe(true);
  expect(await b.renew()).toBe(false);
  now += 8_000;
  expect(await a.renew()).toBe(true); // renewed: runs out 10 s from now
  now += 9_999;
  expect(await b.renew()).toBe(false);
  now += 2; // a stopped renewing: the lease ran out
  expect(await b.renew()).toBe(true);
  expect(await a.renew()).toBe(false);
  await b.release();
  expect(await a.renew()).toBe(true); // at once
  expect(changes).toEqual(['a true', 'b true', 'a false', 'b false', 'a true']);

  // Both asking at once: by their next renewal exactly one holds it (at once, when the server checks
  // the revision each write expects; nats-server 2.9 may let both writes through, see cluster-lease.ts).
  await a.release();
  const c = new ClusterLease(kv, 'refits', 10_000, clock);
  const d = new ClusterLease(kv, 'refits', 10_000, clock);
  await Promise.all([c.renew(), d.renew()]);
  now += 2_500;
  expect((await Promise.all([c.renew(), d.renew()])).filter(Boolean)).toHaveLength(1);
  expect([c.held, d.held].filter(Boolean)).toHaveLength(1);
});
