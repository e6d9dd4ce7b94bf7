// Rebuilds a customer whose shopper slot was evicted from their latest indexed events, before their
// next event is applied or their next answer computed: an eviction loses nothing the log holds.
// Bounded: at most REBUILD_EVENTS events are read (one index range and the log entries holding them).
import { rebuildCustomer } from '../engine/customer-state.js';
import type { ShopEngine } from '../engine/shop-engine.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { CustomerStore } from '../store/customer-store.js';

/** The newest events of a customer read back for a rebuild (a shopper keeps fewer than this of each kind). */
export const REBUILD_EVENTS = 300;

export class CustomerRebuild {
  constructor(readonly store: CustomerStore) {}

  /**
   * When the customer has no slot in `engine`, refills it from their events at log positions before
   * `before` (the engine's models include all of those). A customer with no such events gets no slot.
   */
  ensure(shopId: string, engine: ShopEngine, customerId: string, before: number): void {
    if (engine.holdsCustomer(customerId)) return;
    const events = this.store.latest(shopId, customerId, before, REBUILD_EVENTS);
    if (events.length === 0) return;
    rebuildCustomer(engine, customerId, events.map(({ event }) => event));
  }

  /**
   * Before an answer for the customer: refills them in the shop's models as they stand, unless a
   * snapshot is copying those models (they must not change): that answer is then the session's.
   */
  refill(shopId: string, engines: ShopEngines, customerId: string): void {
    if (engines.changesWait(shopId) === undefined) this.ensure(shopId, engines.get(shopId), customerId, engines.position(shopId) + 1);
  }
}
