// Rebuilds every shop's in-memory models from LMDB at start: from its latest snapshot when there
// is one (then only the events at log positions after it, whatever their ids: a CLI import may
// have stored older ids since), else from the whole event log; the catalog is upserted in
// between, so the models answer exactly as they did before the restart.
import { ShopEngine } from '../engine/shop-engine.js';
import type { CatalogStore } from '../store/catalog-store.js';
import type { EventLog } from '../store/event-log.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { ShopEngines } from './shop-engines.js';

export interface ReplayStats {
  /** Shops found in the data dir (with a catalog or events). */
  shops: number;
  products: number;
  events: number;
  /** Shops restored from a snapshot. */
  snapshots: number;
  ms: number;
}

export function replay(
  catalog: CatalogStore,
  log: EventLog,
  snapshots: SnapshotStore,
  engines: ShopEngines,
  clock: () => number = performance.now.bind(performance),
): ReplayStats {
  const started = clock();
  const stats: ReplayStats = { shops: 0, products: 0, events: 0, snapshots: 0, ms: 0 };
  const shopIds = new Set([...catalog.shopIds(), ...log.shopIds()]);
  stats.shops = shopIds.size;
  for (const shopId of shopIds) {
    const snapshot = snapshots.get(shopId);
    const restored = snapshot === undefined ? undefined : ShopEngine.restore(engines.config, snapshot.state);
    const from = restored === undefined ? 0 : snapshot!.position;
    if (restored !== undefined) {
      engines.adopt(shopId, restored, from);
      stats.snapshots++;
    }
    const engine = engines.get(shopId);
    for (const product of catalog.readShop(shopId)) {
      engine.upsertProduct(product);
      stats.products++;
    }
    let last = from;
    for (const { position, event } of log.readShop(shopId, from)) {
      engine.apply(event);
      last = position;
      stats.events++;
    }
    if (last !== from) engines.noteApplied(shopId, last);
  }
  stats.ms = Math.round(clock() - started);
  return stats;
}
