// The LMDB shop log: the ShopLog contract (shop-log-contract.ts, which the JetStream log runs too),
// and what only a data dir's own layout has to say.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLogLayout, openDatabases } from '../../src/store/database.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { tempDataDir } from '../support/service.js';
import { describeShopLog } from './shop-log-contract.js';

describeShopLog('LmdbShopLog', async () => {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  return {
    log: new LmdbShopLog(dbs),
    dbs,
    async close() {
      await dbs.root.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('LmdbShopLog', () => {
  test('When a data dir holds events stored by id (a development layout), then it is refused with a message saying so', async () => {
    const other = tempDataDir();
    mkdirSync(path.join(other, 'db'), { recursive: true });
    const old = openDatabases(path.join(other, 'db'));
    try {
      expect(() => checkLogLayout(old)).not.toThrow();
      await old.events.put(['shop', 'evt_1'], { type: 'view', productId: 'p', sessionId: 's1', timestamp: 0 });
      expect(() => checkLogLayout(old)).toThrow(/1 events in the layout of a development version/);
    } finally {
      await old.root.close();
      rmSync(other, { recursive: true, force: true });
    }
  });
});
