// The JetStream shop log keeps the ShopLog contract (shop-log-contract.ts) as the LMDB one does: its
// writes go through a real 3-server NATS cluster's stream and come back through this node's
// follower, materialized into the node's LMDB log.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { openDatabases } from '../../../src/store/database.js';
import { openReplicatedLog } from '../../../src/store/jetstream/replicated-log.js';
import { LmdbShopLog } from '../../../src/store/shop-log.js';
import { NatsCluster } from '../../support/nats-cluster.js';
import { tempDataDir } from '../../support/service.js';
import { describeShopLog } from '../shop-log-contract.js';

const WEEK_MS = 7 * 86_400_000;

describeShopLog('JetStreamShopLog', async () => {
  const cluster = await NatsCluster.start(3);
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  const said: string[] = [];
  try {
    const nats = { urls: cluster.urls, replicas: 3, stream: 'TEST_CONTRACT', backupIntervalMs: 0, maxBytes: -1 };
    const replicated = await openReplicatedLog(nats, dbs, new LmdbShopLog(dbs), WEEK_MS, (line) => said.push(line), 'shop-log contract');
    return {
      log: replicated.log,
      dbs,
      async close() {
        await replicated.close();
        await dbs.root.close();
        await cluster.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await dbs.root.close();
    await cluster.stop();
    throw new Error(`${(error as Error).message}; it said:\n${said.join('\n')}`);
  }
});
