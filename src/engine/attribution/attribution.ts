// Attribution: which recommendations earned which clicks, add-to-carts, orders and revenue. A pure
// model over the event stream (time from the events), applied with the other models and kept in
// their snapshots, so a restart gives the same numbers. The rules (docs/analytics.md):
//   - an impression with a recId counts for the recommendation's key — its strategy, experiment
//     and variant (from the recId) and the event's widgetId — on the event's UTC day, and the
//     session remembers that the recommendation showed it that product;
//   - a click counts for the key of its recId, or without one (or with one that does not parse)
//     for the key its session was last shown that product under; otherwise it is no
//     recommendation's click. A counted click is remembered for its customer and its session;
//   - an add_to_cart or purchase with a recId counts for that key (the card's own button) and is
//     remembered like a click; without one it counts for the shopper's (customer's or session's)
//     latest remembered click on that product at most `windowMs` earlier (last click wins);
//   - a purchase counts one order per distinct metadata.orderId and key (each purchase without an
//     orderId is an order), and revenue metadata.price × metadata.quantity (default 1) when those
//     are numbers, else the catalog price.
// Every count goes to the key's day cell, and every count but impressions to the product's day cell
// too (product-cells.ts).
import { orderIdOf, type EngineEvent } from '../event.js';
import { CUSTOMER_SPACE, SESSION_SPACE } from '../shopper-keys.js';
import { parseRecId } from './rec-id.js';
import { ADD_TO_CARTS, CLICKS, DAY_MS, DayCells, IMPRESSIONS, ORDERS, packKey, REVENUE, type DayCellsSnapshot } from './day-cells.js';
import { ProductCells, type ProductCellsSnapshot } from './product-cells.js';
import { productHash, ShopperMemory, type ShopperMemorySnapshot } from './shopper-memory.js';

/** The event fields attribution reads (EngineEvent plus the two it alone uses). */
export interface AttributedEvent extends EngineEvent {
  readonly widgetId?: string;
  readonly recId?: string;
}

/** Named widgets per shop; others are counted as OTHER_WIDGET. Index 0 is no widgetId. */
export const MAX_WIDGETS = 256;
export const NO_WIDGET = 0;
export const OTHER_WIDGET = 1;
export const WIDGET_NAMES = ['(none)', '(other)'] as const;
/** Shoppers (sessions and customers) remembered per shop, the least recently active dropped first. */
export const MAX_SHOPPERS = 50_000;
/** (orderId, key) pairs remembered to count each order once per key, the oldest dropped first. */
export const MAX_ORDERS_REMEMBERED = 8192;
/** Largest metadata.price taken as a unit price (larger: the catalog price). */
export const MAX_EVENT_REVENUE = 1e9;

export interface AttributionSnapshot {
  /** Widget names by index from 2 on. */
  widgets: string[];
  cells: DayCellsSnapshot;
  shoppers: ShopperMemorySnapshot;
  /** Remembered `orderId \0 day:key` entries, oldest first. */
  orders: string[];
  /** Absent in snapshots from before per-product counts: those start empty. */
  products?: ProductCellsSnapshot;
}

/** The catalog price of a bare product id, or undefined. */
export type PriceOf = (productId: string) => number | undefined;

export class Attribution {
  readonly cells = new DayCells();
  readonly products = new ProductCells();
  readonly shoppers: ShopperMemory;
  readonly #widgetOf = new Map<string, number>();
  readonly #widgets: string[] = [...WIDGET_NAMES];
  readonly #orders = new Set<string>();

  constructor(
    /** How long after a click an add_to_cart or purchase still counts for it, in ms. */
    readonly windowMs: number,
    maxShoppers = MAX_SHOPPERS,
  ) {
    this.shoppers = new ShopperMemory(maxShoppers);
  }

  /** Widget names by index (0: none, 1: the widgets past MAX_WIDGETS). */
  get widgets(): readonly string[] {
    return this.#widgets;
  }

  apply(event: AttributedEvent, priceOf: PriceOf): void {
    const type = event.type;
    if (type !== 'impression' && type !== 'click' && type !== 'add_to_cart' && type !== 'purchase') return;
    const rec = event.recId === undefined ? undefined : parseRecId(event.recId);
    const key = rec === undefined ? -1 : packKey(rec.strategy, this.#widget(event.widgetId), rec.experiment, rec.variant);
    const t = event.timestamp;
    const day = Math.floor(t / DAY_MS);
    const product = productHash(event.productId);
    const memory = this.shoppers;
    if (type === 'impression') {
      if (key < 0) return;
      // Not per product: impressions are most of the events, and counting each product's would
      // double attribution's cost on the ingest path (bench/attribution.ts).
      this.cells.add(day, key, IMPRESSIONS, 1);
      memory.shown(memory.touch(SESSION_SPACE, event.sessionId), product, key);
      return;
    }
    if (type === 'click') {
      let clickKey = key;
      if (clickKey < 0) {
        const session = memory.slotOf(SESSION_SPACE, event.sessionId);
        if (session >= 0) clickKey = memory.shownKey(session, product);
        if (clickKey < 0) return;
      }
      this.#count(day, clickKey, event.productId, CLICKS, 1);
      this.#remember(event, product, clickKey, t);
      return;
    }
    let convertedKey = key;
    if (convertedKey >= 0) this.#remember(event, product, convertedKey, t);
    else if ((convertedKey = this.#lastClick(event, product, t)) < 0) return;
    if (type === 'add_to_cart') {
      this.#count(day, convertedKey, event.productId, ADD_TO_CARTS, 1);
      return;
    }
    const orderId = orderIdOf(event);
    if (orderId === undefined || this.#firstOfOrder(orderId + '\u0000' + day + ':' + convertedKey)) this.#count(day, convertedKey, event.productId, ORDERS, 1);
    this.#count(day, convertedKey, event.productId, REVENUE, revenueOf(event, priceOf));
  }

  /** Forgets the shoppers' remembered showings and clicks (an erasure); the day cells keep their counts. */
  forget(customerId: string, sessionIds: readonly string[]): void {
    this.shoppers.forget(CUSTOMER_SPACE, customerId);
    for (const sessionId of sessionIds) this.shoppers.forget(SESSION_SPACE, sessionId);
  }

  snapshot(): AttributionSnapshot {
    return {
      widgets: this.#widgets.slice(WIDGET_NAMES.length),
      cells: this.cells.snapshot(),
      shoppers: this.shoppers.snapshot(),
      orders: [...this.#orders],
      products: this.products.snapshot(),
    };
  }

  restore(snapshot: AttributionSnapshot): void {
    for (const name of snapshot.widgets) this.#widget(name);
    this.cells.restore(snapshot.cells);
    this.shoppers.restore(snapshot.shoppers);
    for (const order of snapshot.orders) this.#orders.add(order);
    if (snapshot.products !== undefined) this.products.restore(snapshot.products);
  }

  /** Adds to one counter of the key's day cell and of the product's (clicks and conversions). */
  #count(day: number, key: number, productId: string, field: number, amount: number): void {
    this.cells.add(day, key, field, amount);
    this.products.add(day, productId, field, amount);
  }

  /** The widget's index, named if there is room. */
  #widget(widgetId: string | undefined): number {
    if (widgetId === undefined) return NO_WIDGET;
    let index = this.#widgetOf.get(widgetId);
    if (index !== undefined) return index;
    if (this.#widgets.length >= MAX_WIDGETS + WIDGET_NAMES.length) return OTHER_WIDGET;
    this.#widgetOf.set(widgetId, (index = this.#widgets.length));
    this.#widgets.push(widgetId);
    return index;
  }

  /** Remembers the click (or the carted card) for the customer, when there is one, and the session. */
  #remember(event: AttributedEvent, product: number, key: number, t: number): void {
    const memory = this.shoppers;
    if (event.customerId !== undefined) memory.clicked(memory.touch(CUSTOMER_SPACE, event.customerId), product, key, t);
    memory.clicked(memory.touch(SESSION_SPACE, event.sessionId), product, key, t);
  }

  /** The key of the shopper's latest click on `product` within the window before `t`; -1 when none. */
  #lastClick(event: AttributedEvent, product: number, t: number): number {
    const memory = this.shoppers;
    let best = -1;
    let bestTime = -Infinity;
    for (let k = 0; k < 2; k++) {
      const id = k === 0 ? event.customerId : event.sessionId;
      if (id === undefined) continue;
      const slot = memory.slotOf(k === 0 ? CUSTOMER_SPACE : SESSION_SPACE, id);
      if (slot < 0) continue;
      const click = memory.clickOf(slot, product);
      if (click < 0) continue;
      const at = memory.clickTime(click);
      if (at <= t && t - at <= this.windowMs && at > bestTime) {
        best = memory.clickKey(click);
        bestTime = at;
      }
    }
    return best;
  }

  /** True the first time an (order, cell) entry is seen among the last MAX_ORDERS_REMEMBERED. */
  #firstOfOrder(entry: string): boolean {
    if (this.#orders.has(entry)) return false;
    this.#orders.add(entry);
    if (this.#orders.size > MAX_ORDERS_REMEMBERED) this.#orders.delete(this.#orders.values().next().value!);
    return true;
  }
}

/** Largest metadata.quantity taken as one (larger or not a positive number: 1). */
export const MAX_QUANTITY = 10_000;

/**
 * Revenue of one purchase: its unit price — metadata.price when a number from 0 to MAX_EVENT_REVENUE,
 * else the catalog price (0 when none) — times metadata.quantity when a number above 0 and at most
 * MAX_QUANTITY, else 1.
 */
export function revenueOf(event: EngineEvent, priceOf: PriceOf): number {
  const price = event.metadata?.price;
  const quantity = event.metadata?.quantity;
  const unit = typeof price === 'number' && price >= 0 && price <= MAX_EVENT_REVENUE ? price : (priceOf(event.productId) ?? 0);
  return typeof quantity === 'number' && quantity > 0 && quantity <= MAX_QUANTITY ? unit * quantity : unit;
}
