import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { openDatabases, type Databases } from '../../src/store/database.js';
import { LmdbEventLog } from '../../src/store/event-log.js';
import { tempDataDir } from '../support/service.js';

const opened: { dir: string; dbs: Databases }[] = [];

function open(): { dbs: Databases; log: LmdbEventLog } {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  opened.push({ dir, dbs });
  return { dbs, log: new LmdbEventLog(dbs) };
}

afterEach(async () => {
  for (const { dir, dbs } of opened.splice(0)) {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('LmdbEventLog dedup index', () => {
  test('When the index is pruned, then exactly the entries older than the cutoff go, a bounded batch per commit, and their messageIds count as new again', async () => {
    const { dbs, log } = open();
    // 95 messageIds over two shops, every third one fresh (received at 1000), the others stale (at 10).
    for (let i = 0; i < 95; i++) {
      const shopId = i % 2 ? 'shop-b' : 'shop-a';
      const event = { type: 'view' as const, productId: 'p', sessionId: 's', messageId: `m${i}`, timestamp: 0 };
      await log.append(shopId, [{ eventId: `evt_${String(i).padStart(3, '0')}`, event }], i % 3 === 0 ? 1000 : 10);
    }
    let commits = 0;
    const transaction = dbs.root.transaction.bind(dbs.root);
    dbs.root.transaction = ((write: () => unknown) => (commits++, transaction(write))) as typeof dbs.root.transaction;

    expect(await log.pruneDedup(500, 10)).toBe(63);
    expect(commits).toBeGreaterThanOrEqual(7); // 63 stale keys, at most 10 scanned per commit
    for (let i = 0; i < 95; i++) {
      const found = log.findByMessageId(i % 2 ? 'shop-b' : 'shop-a', `m${i}`, 0);
      expect(found).toBe(i % 3 === 0 ? `evt_${String(i).padStart(3, '0')}` : undefined);
    }
    expect(await log.pruneDedup(500, 10)).toBe(0);
  });
});
