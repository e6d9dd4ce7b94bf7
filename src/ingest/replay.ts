// Rebuilds every shop's in-memory models from LMDB at start: catalog first, then the event log
// in arrival order, so the models answer exactly as they did before the restart.
import type { CatalogStore } from '../store/catalog-store.js';
import type { EventLog } from '../store/event-log.js';
import type { ShopEngines } from './shop-engines.js';

export interface ReplayStats {
  products: number;
  events: number;
  ms: number;
}

export function replay(catalog: CatalogStore, log: EventLog, engines: ShopEngines, clock: () => number = performance.now.bind(performance)): ReplayStats {
  const started = clock();
  let products = 0;
  for (const { shopId, product } of catalog.readAll()) {
    engines.get(shopId).upsertProduct(product);
    products++;
  }
  let events = 0;
  for (const { shopId, event } of log.readAll()) {
    engines.get(shopId).apply(event);
    events++;
  }
  return { products, events, ms: Math.round(clock() - started) };
}
