// One server process's view of a data dir, for ingest tests that play several processes in one:
// its own models, applier (restoring from the latest snapshot where the log no longer holds what
// they lack) and stores, over a real LMDB. closeProcessViews() closes every view opened and removes their dirs.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { CatalogUpdates } from '../../src/app/catalog-updates.js';
import { CustomerData } from '../../src/app/customer-data.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { EventPipeline } from '../../src/ingest/event-pipeline.js';
import { LogApplier } from '../../src/ingest/log-applier.js';
import { LogListeners } from '../../src/ingest/log-listeners.js';
import { restoreShop } from '../../src/ingest/replay.js';
import { ShopEngines } from '../../src/engine/shop-engines.js';
import { CatalogStore } from '../../src/store/catalog-store.js';
import { CustomerStore } from '../../src/store/customer-store.js';
import { openDatabases, type Databases } from '../../src/store/database.js';
import { LmdbShopLog } from '../../src/store/shop-log.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { tempDataDir } from './service.js';

const DAY = 86_400_000;
const opened: { dir: string; dbs: Databases; snapshotStore: SnapshotStore }[] = [];

/** A process's view of the data dir `dir` (a new temp one without); `slice`: events its applier catches up per turn. */
export function openProcessView(dir?: string, slice?: number) {
  const root = dir ?? tempDataDir();
  mkdirSync(path.join(root, 'db'), { recursive: true });
  const dbs = openDatabases(path.join(root, 'db'));
  const log = new LmdbShopLog(dbs);
  const catalogStore = new CatalogStore(dbs, log);
  const snapshotStore = new SnapshotStore(dbs);
  opened.push({ dir: root, dbs, snapshotStore });
  const engines = new ShopEngines(DEFAULT_ENGINE_CONFIG);
  const listeners = new LogListeners();
  const applier = new LogApplier(log, engines, listeners, { slice, restore: (shopId) => restoreShop(shopId, catalogStore, snapshotStore, engines).snapshot });
  const pipeline = new EventPipeline(log, applier, 7 * DAY, 'testlog1');
  const catalog = new CatalogUpdates(catalogStore, engines, applier);
  const customers = new CustomerData(new CustomerStore(dbs, log), engines, applier);
  return { root, dbs, log, catalogStore, snapshotStore, engines, listeners, applier, pipeline, catalog, customers };
}

/** Closes the views opened so far (afterEach) and removes their data dirs. */
export async function closeProcessViews(): Promise<void> {
  for (const { dir, dbs, snapshotStore } of opened.splice(0)) {
    await snapshotStore.close();
    await dbs.root.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Closes one view early (a property test's run) and removes its data dir. */
export async function closeProcessView(dbs: Databases): Promise<void> {
  const i = opened.findIndex((o) => o.dbs === dbs);
  if (i < 0) return;
  const [{ dir, snapshotStore }] = opened.splice(i, 1) as [(typeof opened)[number]];
  await snapshotStore.close();
  await dbs.root.close();
  rmSync(dir, { recursive: true, force: true });
}
