// Rebuilds every shop's in-memory models from LMDB at start: from its latest snapshot when there
// is one (then only the log after its position), else from the whole log. The current catalog is
// upserted in between (the log's catalog changes after the snapshot are then applied again, in
// order: upserts and removals of the same products), so the models answer exactly as they did
// before the restart.
import { ShopEngine } from '../engine/shop-engine.js';
import type { CatalogStore } from '../store/catalog-store.js';
import type { ShopLog } from '../store/shop-log.js';
import { applyChange } from './log-applier.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { ShopEngines } from './shop-engines.js';
import type { CustomerRebuild } from './customer-rebuild.js';

export interface ReplayStats {
  /** Shops found in the data dir (with a catalog or events). */
  shops: number;
  products: number;
  events: number;
  /** Shops restored from a snapshot. */
  snapshots: number;
  /** Customer erasures replayed after a snapshot (that snapshot still holds them: a fresh one is due). */
  erasures: number;
  ms: number;
}

export function replay(
  catalog: CatalogStore,
  log: ShopLog,
  snapshots: SnapshotStore,
  engines: ShopEngines,
  clock: () => number = performance.now.bind(performance),
  /** Refills evicted customers before their next event, as the live applier does. */
  customers?: CustomerRebuild,
): ReplayStats {
  const started = clock();
  const stats: ReplayStats = { shops: 0, products: 0, events: 0, snapshots: 0, erasures: 0, ms: 0 };
  const shopIds = new Set([...catalog.shopIds(), ...[...log.heads()].map(({ shopId }) => shopId)]);
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
    for (const record of log.read(shopId, from)) {
      if (record.event !== undefined) {
        const customerId = record.event.customerId;
        if (customerId !== undefined && customers !== undefined) customers.ensure(shopId, engine, customerId, record.position);
        engine.apply(record.event);
        stats.events++;
      } else {
        applyChange(engine, record.change, record.position, (at) => log.easeFit(shopId, at));
        if (record.change.kind === 'customer-erased') stats.erasures++;
      }
      last = record.position;
    }
    if (last !== from) engines.noteApplied(shopId, last);
  }
  stats.ms = Math.round(clock() - started);
  return stats;
}
