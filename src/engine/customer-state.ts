// One customer's state in a shop's engine, as a whole: what the models hold for them (an export),
// forgetting them (an erasure, applied in log order), and rebuilding it from their latest events
// when their slot was evicted. Pure and synchronous, like the engine.
import type { EngineEvent } from './event.js';
import { CART_SPACE, SESSION_PURCHASES_SPACE, type ShopEngine } from './shop-engine.js';
import { CUSTOMER_SPACE, SESSION_SPACE } from './shopper-keys.js';

/** What the models hold for one customer, by product id. */
export interface CustomerModelState {
  /** Recently viewed or clicked, newest first, with the epoch ms of the latest view. */
  recentlyViewed: { productId: string; viewedAt: number }[];
  /** Products the personal recommendations draw on, strongest first. */
  affinities: string[];
  /** Products bought (the latest ones kept), oldest first. */
  purchases: string[];
  /** Products dismissed (hidden for the dismissal ttl), in the order recorded. */
  dismissed: string[];
}

/** The customer's state; all empty when the engine holds none for them. */
export function customerModelState(engine: ShopEngine, customerId: string): CustomerModelState {
  const state: CustomerModelState = { recentlyViewed: [], affinities: [], purchases: [], dismissed: [] };
  const slot = engine.shoppers.slotIn(CUSTOMER_SPACE, customerId);
  if (slot < 0) return state;
  const { catalog, recentViews, affinities } = engine;
  const idOf = (dense: number) => catalog.idOf(dense);
  const views = recentViews.start(slot);
  for (let k = 0; k < recentViews.size(slot); k++) state.recentlyViewed.push({ productId: idOf(recentViews.ids[views + k]!), viewedAt: recentViews.times[views + k]! });
  const start = affinities.start(slot);
  const held: { id: number; value: number }[] = [];
  for (let k = 0; k < affinities.size(slot); k++) held.push({ id: affinities.items[start + k]!, value: affinities.values[start + k]! });
  held.sort((a, b) => b.value - a.value || engine.compareIds(a.id, b.id));
  state.affinities = held.map(({ id }) => idOf(id));
  affinities.purchasesOf(slot, (id) => state.purchases.push(idOf(id)));
  engine.dismissals.hiddenFor(slot, -Infinity, (id) => state.dismissed.push(idOf(id)));
  return state;
}

/**
 * Forgets a customer and the sessions of their events: their affinities, purchases, recent views,
 * dismissals, tallies, pairing windows, carts and attribution memory, and whose held events (PendingEvents) were theirs. Aggregates built from many shoppers
 * (pair counts, trending, popularity, the EASE fit, attribution's day counts) keep what the events
 * added. The slots' keys stay in the tables until reused, but no snapshot names them (ErasedKeys).
 */
export function eraseCustomer(engine: ShopEngine, customerId: string, sessionIds: readonly string[]): void {
  engine.clock.tick();
  forgetShopper(engine, engine.shoppers.slotIn(CUSTOMER_SPACE, customerId));
  for (const sessionId of sessionIds) {
    forgetShopper(engine, engine.shoppers.slotIn(SESSION_SPACE, sessionId));
    for (const space of [CART_SPACE, SESSION_PURCHASES_SPACE]) {
      const basket = engine.basketSlots.slotIn(space, sessionId);
      if (basket < 0) continue;
      engine.baskets.groups.clear(basket);
      engine.erasedBaskets.mark(basket);
    }
  }
  engine.attribution.forget(customerId, sessionIds);
  engine.pending.forget(customerId, sessionIds);
}

function forgetShopper(engine: ShopEngine, slot: number): void {
  if (slot < 0) return;
  engine.affinities.clear(slot);
  engine.recentViews.clear(slot);
  engine.dismissals.clear(slot);
  engine.tally.clear(slot);
  engine.shopperItems.groups.clear(slot);
  engine.coViews.groups.clear(slot);
  engine.shopperStamps.mark(slot);
  engine.erasedShoppers.mark(slot);
}

/**
 * Rebuilds the state of a customer who has no slot (evicted) from their latest events, oldest
 * first: their affinities, purchases, recent views, dismissals and pairing window, as applying the
 * events gave them, without counting anything again in the shared models (pairs, trending,
 * popularity, attribution). Products the catalog lacks are skipped. Returns the customer's slot.
 */
export function rebuildCustomer(engine: ShopEngine, customerId: string, events: readonly EngineEvent[]): number {
  engine.clock.tick();
  const slot = engine.touchShopper(CUSTOMER_SPACE, customerId);
  const weights = engine.config.eventWeights;
  for (const event of events) {
    const id = engine.catalog.denseOf(event.productId);
    if (id === undefined) continue;
    const { type, timestamp: t } = event;
    if (type === 'dismiss') {
      engine.dismissals.record(slot, id, t);
      continue;
    }
    if (type === 'view' || type === 'click') engine.recentViews.record(slot, id, t);
    const weight = weights[type];
    if (weight <= 0) continue;
    engine.affinities.record(slot, id, weight, t, type === 'purchase');
    engine.shopperItems.refill(slot, id);
  }
  return slot;
}
