// Rebuilds every shop's in-memory models from LMDB at start: from its latest snapshot when there
// is one (then only the log after its position), else from the whole log. The current catalog is
// upserted in between (the log's catalog changes after the snapshot are then applied again, in
// order: upserts and removals of the same products), so the models answer exactly as they did
// before the restart.
import { ShopEngine } from '../engine/shop-engine.js';
import type { CatalogStore } from '../store/catalog-store.js';
import type { ShopLog } from '../store/shop-log.js';
import { applyChange, NO_LISTENERS, type ChangeListeners } from './log-applier.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { ShopEngines } from '../engine/shop-engines.js';
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

/**
 * Puts the shop's models where a start begins them: its latest snapshot (when one restores) with
 * the current catalog upserted; the log after `position` is then to be applied. Also how a running
 * process catches up when the log no longer holds what its models lack (pruned for retention).
 */
export function restoreShop(shopId: string, catalog: CatalogStore, snapshots: SnapshotStore, engines: ShopEngines): { position: number; snapshot: boolean; products: number } {
  const record = snapshots.get(shopId);
  const restored = record === undefined ? undefined : ShopEngine.restore(engines.config, record.state);
  const position = restored === undefined ? 0 : record!.position;
  if (restored !== undefined) engines.adopt(shopId, restored, position);
  const engine = engines.get(shopId);
  let products = 0;
  for (const product of catalog.readShop(shopId)) {
    engine.upsertProduct(product);
    products++;
  }
  // Rules are not in snapshots: the current ones come from their table, as the catalog does.
  for (const rule of catalog.readRules(shopId)) engine.setRule(rule.id, rule);
  return { position, snapshot: restored !== undefined, products };
}

export function replay(
  catalog: CatalogStore,
  log: ShopLog,
  snapshots: SnapshotStore,
  engines: ShopEngines,
  {
    clock = performance.now.bind(performance),
    customers,
  }: {
    /** What the replay's duration is measured with (ms). */
    clock?: () => number;
    /** Refills evicted customers before their next event, as the live applier does. */
    customers?: CustomerRebuild;
  } = {},
): ReplayStats {
  const started = clock();
  const stats: ReplayStats = { shops: 0, products: 0, events: 0, snapshots: 0, erasures: 0, ms: 0 };
  const shopIds = new Set([...catalog.shopIds(), ...[...log.heads()].map(({ shopId }) => shopId)]);
  // Nobody listens yet; erasures are counted (a snapshot that predates one is due at once).
  const erasures: ChangeListeners = { ...NO_LISTENERS, customerErased: () => stats.erasures++ };
  stats.shops = shopIds.size;
  for (const shopId of shopIds) {
    const { position: from, snapshot, products } = restoreShop(shopId, catalog, snapshots, engines);
    if (snapshot) stats.snapshots++;
    stats.products += products;
    const engine = engines.get(shopId);
    let last = from;
    for (const record of log.read(shopId, from)) {
      if (record.event !== undefined) {
        const customerId = record.event.customerId;
        if (customerId !== undefined && customers !== undefined) customers.ensure(shopId, engine, customerId, record.position);
        engine.apply(record.event);
        stats.events++;
      } else {
        applyChange(shopId, engine, record.change, record.position, (at) => log.easeFit(shopId, at), erasures);
      }
      last = record.position;
    }
    if (last !== from) engines.noteApplied(shopId, last);
  }
  stats.ms = Math.round(clock() - started);
  return stats;
}
