// De-duplication decided alike on every node: a node behind the stream (catching up, restored from
// a backup) keeps the messageIds its older messages are still checked against, however late its
// own clock says it is; a node that has caught up drops them once the window (and a margin for the
// writers' clocks) has passed.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openDatabases } from '../../../src/store/database.js';
import { JetStreamShopLog } from '../../../src/store/jetstream/jetstream-shop-log.js';
import { LmdbShopLog } from '../../../src/store/shop-log.js';
import { tempDataDir } from '../../support/service.js';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const dir = tempDataDir();
mkdirSync(path.join(dir, 'db'), { recursive: true });
const dbs = openDatabases(path.join(dir, 'db'));
const local = new LmdbShopLog(dbs);
// Pruning reads only the node's own log: no NATS connection or fits store is needed for it.
const replicated = new JetStreamShopLog(undefined as never, 'pairwise', local, undefined as never);

afterAll(async () => {
  await dbs.root.close();
  rmSync(dir, { recursive: true, force: true });
});

const view = (messageId: string) => ({ type: 'view' as const, productId: 'p', sessionId: 's', timestamp: 0, messageId });
const remembered = (shopId: string) => [...dbs.dedup.getKeys({})].filter((key) => key[0] === shopId).length;

test('When a node is days behind the stream, then pruning keeps the messageIds its next messages are checked against; caught up, it drops them', async () => {
  const now = 100 * DAY;
  // The node's log ends with a message the stream stored 3 days ago; its dedup entry for m1 is 8 days old.
  await local.appendEvents('shop-a', [{ eventId: 'evt_1', event: view('m1') }], now - 8 * DAY, 0);
  await local.appendEvents('shop-a', [{ eventId: 'evt_2', event: view('m2') }], now - 3 * DAY, 0);
  dbs.replicaState.putSync('time', now - 3 * DAY);
  expect(remembered('shop-a')).toBe(2);

  // By the wall clock m1 is past the window, but the message after the node's last (published 3 days
  // ago, checked against dedupSince = its time minus 7 days) still needs it.
  await replicated.pruneDedup(now - WEEK, undefined, now);
  expect(remembered('shop-a')).toBe(2);
  const next = await local.appendEvents('shop-a', [{ eventId: 'evt_3', event: view('m1') }], now - 3 * DAY + 1, now - 3 * DAY + 1 - WEEK);
  expect(next.duplicateOf).toEqual(['evt_1']);

  // Caught up (its last message is from now): m1 is past the window and the clocks' margin, and goes.
  dbs.replicaState.putSync('time', now);
  await replicated.pruneDedup(now - WEEK, undefined, now);
  expect(remembered('shop-a')).toBe(1);
});
