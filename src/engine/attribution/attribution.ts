// Attribution: which recommendations earned which clicks, add-to-carts, orders and revenue. A pure
// model over the event stream (time from the events), applied with the other models and kept in
// their snapshots, so a restart gives the same numbers. The rules (docs/analytics.md):
//   - an impression with a recId counts for the recommendation's key — its strategy, experiment
//     and variant (from the recId) and the event's widgetId — on the event's UTC day, and the
//     session remembers that the recommendation showed it that product;
//   - a click counts for the key of its recId, or without one (or with one that does not parse)
//     for the key its session was last shown that product under; otherwise it is no
//     recommendation's click. A counted click is remembered for its customer and its session;
//   - an add_to_cart or purchase with a recId counts for that key (the card's own button); unless
//     the shopper's latest click on that product within `windowMs` was under the same key, it is
//     also a click on that card (counted and remembered as one). Without a recId it counts for the
//     shopper's (customer's or session's) latest remembered click on that product at most
//     `windowMs` earlier (last click wins);
//   - the click an add_to_cart or purchase counts for is marked carted or converted, once: the
//     first time it is counted in CARTED_CLICKS or CONVERTED_CLICKS of the click's own cell (its
//     day and key), so those never exceed the cell's clicks and the rates over them stay in [0, 1];
//   - a purchase counts one order per distinct metadata.orderId and key (each purchase without an
//     orderId is an order), and revenue (revenueOf): as sent when a secret key sent it, else at most
//     the catalog price × MAX_STOREFRONT_QUANTITY, also counted apart as storefront-reported.
//   - an event about an item a rule pinned (metadata.ruleId, as the widget sends it) is counted
//     also in the pinned cells, and a click or conversion that follows one made on a pin (the
//     showing or click remembered) is too: the statistics split pins from organic items by this.
// Widget names: registered ones for good, the storefront's per day (widget-names.ts).
// Every count goes to the key's day cell, and every count but impressions to the product's day cell
// too (product-cells.ts).
import { orderIdOf, type EngineEvent } from '../event.js';
import { CUSTOMER_SPACE, SESSION_SPACE } from '../shopper-keys.js';
import { parseRecId } from './rec-id.js';
import { ADD_TO_CARTS, CARTED_CLICKS, CLICKS, CONVERTED_CLICKS, DAY_MS, DayCells, IMPRESSIONS, ORDERS, keyWidget, packKey, REVENUE, STOREFRONT_REVENUE, withWidget, type DayCellsSnapshot } from './day-cells.js';
import { OrderLedger, type OrderLedgerSnapshot } from './order-ledger.js';
import { ProductCells, type ProductCellsSnapshot } from './product-cells.js';
import { CARTED, CONVERTED, productHash, ShopperMemory, type ShopperMemorySnapshot } from './shopper-memory.js';
import { WidgetNames, type WidgetNamesSnapshot } from './widget-names.js';

/** The event fields attribution reads (EngineEvent plus the two it alone uses). */
export interface AttributedEvent extends EngineEvent {
  readonly widgetId?: string;
  readonly recId?: string;
}

/**
 * Customers and sessions remembered per shop, each in a pool of its own (the least recently active
 * of the pool dropped first): a flood of new sessions never makes a customer's clicks forgotten.
 */
export const MAX_CUSTOMERS = 25_000;
export const MAX_SESSIONS = 25_000;
/** (orderId, key) pairs remembered to count each order once per key, the oldest dropped first. */
export const MAX_ORDERS_REMEMBERED = 8192;
/** Orders whose counts a cancellation can take back, and cancelled orders remembered (the oldest dropped first). */
export const MAX_ORDERS_IN_LEDGER = 8192;
/** Largest metadata.price taken as a unit price (larger: the catalog price). */
export const MAX_EVENT_REVENUE = 1e9;

export interface AttributionSnapshot extends WidgetNamesSnapshot {
  cells: DayCellsSnapshot;
  shoppers: ShopperMemorySnapshot;
  /** Remembered `orderId \0 day:key` entries, oldest first. */
  orders: string[];
  /** Absent in snapshots from before per-product counts: those start empty. */
  products?: ProductCellsSnapshot;
  /** Absent in snapshots from before pinned items were told apart: those start empty. */
  pins?: DayCellsSnapshot;
  /** Absent in snapshots from before cancellations: those start empty. */
  ledger?: OrderLedgerSnapshot;
  cancelled?: string[];
}

/** Whether the event is about an item a rule pinned in the answer it came from (metadata.ruleId). */
function isPinned(event: AttributedEvent): boolean {
  const ruleId = event.metadata?.ruleId;
  return typeof ruleId === 'string' && ruleId.length > 0 && ruleId.length <= 64;
}

/** The catalog price of a bare product id, or undefined. */
export type PriceOf = (productId: string) => number | undefined;

export class Attribution {
  readonly cells = new DayCells();
  /** The part of `cells` that items pinned by rules earned (same keys and days). */
  readonly pins = new DayCells();
  readonly products = new ProductCells();
  readonly shoppers: ShopperMemory;
  readonly widgets = new WidgetNames();
  readonly #orders = new Set<string>();
  /** What each recent order's purchases counted, to take back on its cancellation. */
  readonly #ledger = new OrderLedger(MAX_ORDERS_IN_LEDGER);
  /** Orders cancelled, the oldest forgotten first past MAX_ORDERS_IN_LEDGER. */
  readonly #cancelled = new Set<string>();

  constructor(
    /** How long after a click an add_to_cart or purchase still counts for it, in ms. */
    readonly windowMs: number,
    /** Shoppers remembered: one pool for all, or per key space (shopper-keys.ts) a pool of its own. */
    capacity: number | readonly number[] = [MAX_CUSTOMERS, MAX_SESSIONS],
  ) {
    this.shoppers = new ShopperMemory(capacity);
  }

  apply(event: AttributedEvent, priceOf: PriceOf): void {
    const type = event.type;
    if (type !== 'impression' && type !== 'click' && type !== 'add_to_cart' && type !== 'purchase') return;
    const rec = event.recId === undefined ? undefined : parseRecId(event.recId);
    const t = event.timestamp;
    const day = Math.floor(t / DAY_MS);
    const key = rec === undefined ? -1 : packKey(rec.strategy, this.widgets.indexOf(event.widgetId, day), rec.experiment, rec.variant);
    const pinned = key >= 0 && isPinned(event);
    const product = productHash(event.productId);
    const memory = this.shoppers;
    if (type === 'impression') {
      if (key < 0) return;
      // Not per product: impressions are most of the events, and counting each product's would
      // double attribution's cost on the ingest path (bench/attribution.ts).
      this.cells.add(day, key, IMPRESSIONS, 1);
      if (pinned) this.pins.add(day, key, IMPRESSIONS, 1);
      memory.shown(memory.touch(SESSION_SPACE, event.sessionId), product, key, day, pinned);
      return;
    }
    if (type === 'click') {
      let clickKey = key;
      let clickPinned = pinned;
      if (clickKey < 0) {
        const session = memory.slotOf(SESSION_SPACE, event.sessionId);
        const shown = session < 0 ? -1 : memory.shownOf(session, product);
        if (shown < 0) return;
        clickKey = this.#onDay(memory.shownKey(shown), memory.shownDay(shown), day);
        clickPinned = memory.shownPinned(shown);
      }
      this.#count(day, clickKey, clickPinned, event.productId, CLICKS, 1);
      this.#remember(event, product, clickKey, clickPinned, t);
      return;
    }
    const orderId = type === 'purchase' ? orderIdOf(event) : undefined;
    if (orderId !== undefined && this.#cancelled.has(orderId)) return;
    let convertedKey = key;
    let convertedPinned = pinned;
    let click = this.#lastClick(event, product, t);
    if (key >= 0) {
      if (click >= 0 && !this.#sameKey(click, key, day)) click = -1;
      // The card's own button: a click on the card unless it continues the shopper's click under this
      // key. A purchase the merchant's server or a platform reports with a recId (a Shopify order's
      // cart attributes) says which recommendation the product came from: a conversion, not a click.
      if (click < 0 && !(type === 'purchase' && event.sender === 'secret')) {
        this.#count(day, key, pinned, event.productId, CLICKS, 1);
        click = this.#remember(event, product, key, pinned, t);
      }
    } else {
      if (click < 0) return;
      convertedKey = this.#onDay(memory.clickKey(click), Math.floor(memory.clickTime(click) / DAY_MS), day);
      convertedPinned = memory.clickPinned(click);
    }
    if (click >= 0) this.#wentOn(click, event.productId, type === 'add_to_cart' ? CARTED : CONVERTED);
    if (type === 'add_to_cart') {
      this.#count(day, convertedKey, convertedPinned, event.productId, ADD_TO_CARTS, 1);
      return;
    }
    const firstOfOrder = orderId === undefined || this.#firstOfOrder(orderId + '\u0000' + day + ':' + convertedKey);
    if (firstOfOrder) this.#count(day, convertedKey, convertedPinned, event.productId, ORDERS, 1);
    const revenue = revenueOf(event, priceOf);
    this.#count(day, convertedKey, convertedPinned, event.productId, REVENUE, revenue);
    const storefront = event.sender !== 'secret';
    if (storefront) this.#count(day, convertedKey, convertedPinned, event.productId, STOREFRONT_REVENUE, revenue);
    if (orderId !== undefined) this.#ledger.note(orderId, { day, key: convertedKey, pinned: convertedPinned, productId: event.productId, order: firstOfOrder ? 1 : 0, revenue, storefront: storefront ? revenue : 0 });
  }

  /**
   * The order was cancelled: what its purchases added to orders, revenue and storefront revenue is
   * taken back from the cells they were counted in (while the order is among the last
   * MAX_ORDERS_IN_LEDGER counted), and purchases of it that come later count nothing. Clicks, carts and
   * the click's conversion stay counted: the shopper did take the recommendation.
   */
  cancelOrder(orderId: string): void {
    if (this.#cancelled.has(orderId)) return;
    this.#cancelled.add(orderId);
    if (this.#cancelled.size > MAX_ORDERS_IN_LEDGER) this.#cancelled.delete(this.#cancelled.values().next().value!);
    for (const line of this.#ledger.take(orderId)) {
      for (const [field, amount] of [[ORDERS, line.order], [REVENUE, line.revenue], [STOREFRONT_REVENUE, line.storefront]] as const) {
        if (amount === 0) continue;
        this.cells.takeBack(line.day, line.key, field, amount);
        if (line.pinned) this.pins.takeBack(line.day, line.key, field, amount);
        this.products.takeBack(line.day, line.productId, field, amount);
      }
    }
  }

  /** Forgets the shoppers' remembered showings and clicks (an erasure); the day cells keep their counts. */
  forget(customerId: string, sessionIds: readonly string[]): void {
    this.shoppers.forget(CUSTOMER_SPACE, customerId);
    for (const sessionId of sessionIds) this.shoppers.forget(SESSION_SPACE, sessionId);
  }

  snapshot(): AttributionSnapshot {
    return {
      ...this.widgets.snapshot(),
      cells: this.cells.snapshot(),
      shoppers: this.shoppers.snapshot(),
      orders: [...this.#orders],
      products: this.products.snapshot(),
      pins: this.pins.snapshot(),
      ledger: this.#ledger.snapshot(),
      cancelled: [...this.#cancelled],
    };
  }

  restore(snapshot: AttributionSnapshot): void {
    this.widgets.restore(snapshot);
    this.cells.restore(snapshot.cells);
    this.shoppers.restore(snapshot.shoppers);
    for (const order of snapshot.orders) this.#orders.add(order);
    if (snapshot.products !== undefined) this.products.restore(snapshot.products);
    if (snapshot.pins !== undefined) this.pins.restore(snapshot.pins);
    if (snapshot.ledger !== undefined) this.#ledger.restore(snapshot.ledger);
    for (const order of snapshot.cancelled ?? []) this.#cancelled.add(order);
  }

  /** Adds to one counter of the key's day cell (and its pinned cell) and of the product's (clicks and conversions). */
  #count(day: number, key: number, pinned: boolean, productId: string, field: number, amount: number): void {
    this.cells.add(day, key, field, amount);
    if (pinned) this.pins.add(day, key, field, amount);
    this.products.add(day, productId, field, amount);
  }

  /** Remembers the click for the customer, when there is one, and the session, as twins; the session's entry. */
  #remember(event: AttributedEvent, product: number, key: number, pinned: boolean, t: number): number {
    const memory = this.shoppers;
    const id = memory.newClickId();
    const customer = event.customerId === undefined ? -1 : memory.touch(CUSTOMER_SPACE, event.customerId);
    if (customer >= 0) memory.clicked(customer, product, key, t, pinned, id);
    const session = memory.touch(SESSION_SPACE, event.sessionId);
    // One pool for both may have just given the customer's slot to the session.
    const twin = customer >= 0 && customer !== session ? customer : -1;
    const index = memory.clicked(session, product, key, t, pinned, id, twin);
    if (twin >= 0) memory.setTwin(twin, product, id, session);
    return index;
  }

  /** Counts, the first time only, that the click at `index` went on to a cart or an order (`flag`), in the click's own cells. */
  #wentOn(index: number, productId: string, flag: number): void {
    const memory = this.shoppers;
    if (!memory.mark(index, flag)) return;
    const field = flag === CARTED ? CARTED_CLICKS : CONVERTED_CLICKS;
    const day = Math.floor(memory.clickTime(index) / DAY_MS);
    const key = memory.clickKey(index);
    this.cells.addClickOutcome(day, key, field);
    if (memory.clickPinned(index)) this.pins.addClickOutcome(day, key, field);
    this.products.addClickOutcome(day, productId, field);
  }

  /** A remembered key, made on `fromDay`, as counted on `day` (its storefront widget is a day's name: widget-names.ts). */
  #onDay(key: number, fromDay: number, day: number): number {
    const widget = keyWidget(key);
    const now = this.widgets.onDay(widget, fromDay, day);
    return now === widget ? key : withWidget(key, now);
  }

  /** Whether the remembered click at `index` was under `key` (as counted on `day`): the same strategy, experiment, variant and widget name. */
  #sameKey(index: number, key: number, day: number): boolean {
    const clickKey = this.shoppers.clickKey(index);
    if (withWidget(clickKey, 0) !== withWidget(key, 0)) return false;
    const clickDay = Math.floor(this.shoppers.clickTime(index) / DAY_MS);
    return this.widgets.nameOf(clickDay, keyWidget(clickKey)) === this.widgets.nameOf(day, keyWidget(key));
  }

  /** The index of the shopper's latest remembered click on `product` within the window before `t`; -1 when none. */
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
        best = click;
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

/** Largest metadata.quantity taken as one from a secret key (larger or not a positive number: 1). */
export const MAX_QUANTITY = 10_000;
/**
 * Largest quantity a purchase from a public key counts (a larger one counts this many): anyone can
 * send one, so its revenue is bounded by the catalog, at most this many units of the product.
 */
export const MAX_STOREFRONT_QUANTITY = 10;

/**
 * Revenue of one purchase. From a secret key (the merchant's server): its unit price —
 * metadata.price when a number from 0 to MAX_EVENT_REVENUE, else the catalog price (0 when none) —
 * times metadata.quantity when a number above 0 and at most MAX_QUANTITY, else 1. From a public key
 * (or stored before senders were recorded): metadata.price when below the catalog price, else the
 * catalog price, times metadata.quantity up to MAX_STOREFRONT_QUANTITY (else 1); 0 when the product
 * has no catalog price.
 */
export function revenueOf(event: EngineEvent, priceOf: PriceOf): number {
  const price = event.metadata?.price;
  const quantity = event.metadata?.quantity;
  const count = typeof quantity === 'number' && quantity > 0 ? quantity : 1;
  if (event.sender === 'secret') {
    const unit = typeof price === 'number' && price >= 0 && price <= MAX_EVENT_REVENUE ? price : (priceOf(event.productId) ?? 0);
    return count <= MAX_QUANTITY ? unit * count : unit;
  }
  const catalog = priceOf(event.productId);
  if (catalog === undefined) return 0;
  const unit = typeof price === 'number' && price >= 0 && price < catalog ? price : catalog;
  return unit * Math.min(count, MAX_STOREFRONT_QUANTITY);
}
