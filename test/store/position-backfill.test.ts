import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { TrackedEvent } from '../../src/api/event.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { replay } from '../../src/ingest/replay.js';
import { ShopEngines } from '../../src/ingest/shop-engines.js';
import { CatalogStore } from '../../src/store/catalog-store.js';
import { openDatabases, type Databases } from '../../src/store/database.js';
import { LmdbEventLog } from '../../src/store/event-log.js';
import { backfillPositions } from '../../src/store/position-backfill.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { appendByIds, storeWithoutPositions } from '../support/older-event-layouts.js';
import { tempDataDir } from '../support/service.js';

const opened: { dir: string; dbs: Databases }[] = [];

function open(): Databases {
  const dir = tempDataDir();
  mkdirSync(path.join(dir, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(dir, 'db'));
  opened.push({ dir, dbs });
  return dbs;
}

afterEach(async () => {
  for (const { dir, dbs } of opened.splice(0)) {
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

function view(productId: string): TrackedEvent {
  return { type: 'view', productId, sessionId: 's1', timestamp: 0 };
}

/** Events as a build before log positions stored them. */
function storeOldLayout(dbs: Databases, shopId: string, eventIds: string[]): Promise<void> {
  return storeWithoutPositions(dbs, shopId, eventIds.map((eventId) => ({ eventId, event: view(eventId.slice(-2)) })));
}

function positions(dbs: Databases, shopId: string): [number, string][] {
  return [...new LmdbEventLog(dbs).readShop(shopId)].map(({ position, eventId }) => [position, eventId]);
}

describe('backfillPositions', () => {
  test('When a data dir holds events without positions, then each gets one in eventId order, once', async () => {
    const dbs = open();
    await storeOldLayout(dbs, 'shop-a', ['evt_03', 'evt_01', 'evt_02']);
    await storeOldLayout(dbs, 'shop-b', ['evt_09']);

    expect(await backfillPositions(dbs)).toBe(4);

    expect(positions(dbs, 'shop-a')).toEqual([[1, 'evt_01'], [2, 'evt_02'], [3, 'evt_03']]);
    expect(positions(dbs, 'shop-b')).toEqual([[1, 'evt_09']]);
    expect(await backfillPositions(dbs)).toBe(0);
    expect(positions(dbs, 'shop-a')).toEqual([[1, 'evt_01'], [2, 'evt_02'], [3, 'evt_03']]);
  });

  test('When a shop has more old events than one log entry holds, then they get consecutive positions across entries', async () => {
    const dbs = open();
    const ids = Array.from({ length: 2500 }, (_, i) => `evt_${String(i).padStart(5, '0')}`);
    await storeOldLayout(dbs, 'shop-a', ids);

    expect(await backfillPositions(dbs)).toBe(2500);

    expect(positions(dbs, 'shop-a')).toEqual(ids.map((id, i) => [i + 1, id]));
    expect([...new LmdbEventLog(dbs).readShop('shop-a', 999, 1001)].map(({ eventId }) => eventId)).toEqual([ids[999], ids[1000]]);
  });

  test('When some events have positions and others not, then the others follow the shop\'s last position and the rest keep theirs', async () => {
    const dbs = open();
    const log = new LmdbEventLog(dbs);
    expect(await log.append('shop-a', [{ eventId: 'evt_05', event: view('05') }], 0)).toBe(1);
    await storeOldLayout(dbs, 'shop-a', ['evt_02', 'evt_07']); // e.g. an older build's CLI beside a newer server

    expect(await backfillPositions(dbs)).toBe(2);

    expect(positions(dbs, 'shop-a')).toEqual([[1, 'evt_05'], [2, 'evt_02'], [3, 'evt_07']]);
    expect(await log.append('shop-a', [{ eventId: 'evt_08', event: view('08') }], 0)).toBe(4);
  });

  test('When events stored by id (with positions) and events held by log entries are all positioned, then the backfill finds that without reading a key, and changes nothing', async () => {
    const dbs = open();
    const log = new LmdbEventLog(dbs);
    expect(await appendByIds(dbs, 'shop-a', [{ eventId: 'evt_01', event: view('01') }, { eventId: 'evt_02', event: view('02') }])).toBe(1);
    expect(await log.append('shop-a', [{ eventId: 'evt_03', event: view('03') }], 0)).toBe(3);
    expect(await log.append('shop-b', [{ eventId: 'evt_01', event: view('01') }, { eventId: 'evt_04', event: view('04') }], 0)).toBe(1);
    expect(await appendByIds(dbs, 'shop-a', [{ eventId: 'evt_00', event: view('00') }])).toBe(4); // an older build's CLI beside a newer server
    let keysRead = 0;
    const getKeys = dbs.events.getKeys.bind(dbs.events);
    dbs.events.getKeys = ((options?: object) => (keysRead++, getKeys(options))) as typeof dbs.events.getKeys;

    expect(await backfillPositions(dbs)).toBe(0);

    expect(keysRead).toBe(0);
    expect(positions(dbs, 'shop-a')).toEqual([[1, 'evt_01'], [2, 'evt_02'], [3, 'evt_03'], [4, 'evt_00']]);
    expect(positions(dbs, 'shop-b')).toEqual([[1, 'evt_01'], [2, 'evt_04']]);
  });

  test('When an old data dir has a snapshot without a position, then after the backfill a replay ignores it and applies the whole log', async () => {
    const dbs = open();
    await storeOldLayout(dbs, 'shop-a', ['evt_01', 'evt_02', 'evt_03']);
    await dbs.snapshots.put('shop-a', { lastEventId: 'evt_02', takenAt: 0, state: {} } as never);
    await backfillPositions(dbs);
    const engines = new ShopEngines(DEFAULT_ENGINE_CONFIG);
    const snapshots = new SnapshotStore(dbs);

    const stats = replay(new CatalogStore(dbs), new LmdbEventLog(dbs), snapshots, engines);

    expect(stats).toMatchObject({ snapshots: 0, events: 3 });
    expect(engines.position('shop-a')).toBe(3);
    await snapshots.close();
  });
});
