// The attribution rules (src/engine/attribution/) written the obvious way, in plain Maps and
// arrays with string keys: the compact model must count exactly what this counts. No day or cell
// bounds, no product bounds and no order memory bound (streams in tests stay below them); the shopper table is the
// same LRU bound as the compact one's, so eviction is compared too. Widgets: registered ones by
// name, others by name among the first `perDay` of their UTC day, else (other).
import { parseRecId } from '../../src/engine/attribution/rec-id.js';
import { orderIdOf } from '../../src/engine/event.js';
import type { AttributedEvent, PriceOf } from '../../src/engine/attribution/attribution.js';
import { ReferenceLru, ReferencePooledLru } from './shopper-state.js';

const DAY = 86_400_000;

export interface ReferenceKey {
  strategy: number;
  widget: string;
  experiment: number;
  variant: number;
  /** The day a storefront widget's name was taken for; undefined for none, (other) and registered widgets. */
  storefrontDay?: number;
}

/** One click, held by its customer's and its session's lists alike: what it went on to is one fact. */
interface Click {
  product: string;
  key: ReferenceKey;
  t: number;
  pinned: boolean;
  carted: boolean;
  converted: boolean;
}

interface Shopper {
  shown: { product: string; key: ReferenceKey; pinned: boolean }[];
  clicks: Click[];
}

/**
 * Counters by `day|strategy|widget|experiment|variant`: impressions, clicks, add-to-carts, orders,
 * revenue, storefront revenue, and of the clicks, those that went on to a cart and to an order.
 */
export type ReferenceCells = Map<string, number[]>;

/** Counters by `day|productId`, the same but impressions (not counted per product): what each product earned per day. */
export type ReferenceProductCells = Map<string, number[]>;

export class ReferenceAttribution {
  readonly cells: ReferenceCells = new Map();
  readonly products: ReferenceProductCells = new Map();
  /** The part of `cells` counted for items a rule pinned (events with metadata.ruleId, and what follows them). */
  readonly pins: ReferenceCells = new Map();
  readonly shoppers: ReferenceLru<Shopper> | ReferencePooledLru<Shopper>;
  /** Each day's storefront widget names, in the order first seen. */
  readonly dayWidgets = new Map<number, string[]>();
  readonly orders = new Set<string>();
  /** Per order id, what its purchases added: each cell, field and amount. */
  readonly ledger = new Map<string, { cells: ReferenceCells; name: string; field: number; amount: number }[]>();
  readonly cancelled = new Set<string>();

  constructor(
    readonly windowMs: number,
    /** One pool for all shoppers, or customers' and sessions' own. */
    capacity: number | readonly [number, number],
    readonly perDay: number,
    readonly registered: ReadonlySet<string> = new Set(),
  ) {
    const create = (): Shopper => ({ shown: [], clicks: [] });
    this.shoppers = typeof capacity === 'number' ? new ReferenceLru(capacity, create) : new ReferencePooledLru(['c:', 's:'], capacity, create);
  }

  apply(event: AttributedEvent, priceOf: PriceOf): void {
    const { type, productId: product, timestamp: t } = event;
    if (!['impression', 'click', 'add_to_cart', 'purchase'].includes(type)) return;
    const rec = event.recId === undefined ? undefined : parseRecId(event.recId);
    const day = Math.floor(t / DAY);
    const key = rec && { strategy: rec.strategy, ...this.#widget(event.widgetId, day), experiment: rec.experiment, variant: rec.variant };
    const ruleId = event.metadata?.ruleId;
    const pinned = key !== undefined && typeof ruleId === 'string' && ruleId.length >= 1 && ruleId.length <= 64;
    if (type === 'impression') {
      if (!key) return;
      this.#count(day, key, product, 0, 1, pinned);
      const shown = this.shoppers.touch('s:' + event.sessionId).shown;
      shown.push({ product, key, pinned });
      if (shown.length > 32) shown.shift();
      return;
    }
    if (type === 'click') {
      const session = this.shoppers.get('s:' + event.sessionId);
      const shown = session?.shown.findLast((s) => s.product === product);
      const clickKey = key ?? (shown && this.#onDay(shown.key, day));
      if (!clickKey) return;
      const clickPinned = key ? pinned : shown!.pinned;
      this.#count(day, clickKey, product, 1, 1, clickPinned);
      this.#remember(event, clickKey, clickPinned);
      return;
    }
    const orderId = type === 'purchase' ? orderIdOf(event) : undefined;
    if (orderId !== undefined && this.cancelled.has(orderId)) return;
    let converted = key;
    let convertedPinned = pinned;
    let best: Click | undefined;
    for (const name of [event.customerId === undefined ? undefined : 'c:' + event.customerId, 's:' + event.sessionId]) {
      const click = name === undefined ? undefined : this.shoppers.get(name)?.clicks.find((c) => c.product === product);
      if (click && click.t <= t && t - click.t <= this.windowMs && (best === undefined || click.t > best.t)) best = click;
    }
    if (key) {
      // The card's own button is a click on the card, unless it follows a click under the same key.
      const same = best && best.key.strategy === key.strategy && best.key.widget === key.widget && best.key.experiment === key.experiment && best.key.variant === key.variant;
      if (!same) best = undefined;
      // A purchase reported with a secret key and a recId is the recommendation's conversion, not a click on its card.
      if (!same && !(type === 'purchase' && event.sender === 'secret')) {
        this.#count(day, key, product, 1, 1, pinned);
        best = this.#remember(event, key, pinned);
      }
    } else {
      if (!best) return;
      converted = this.#onDay(best.key, day);
      convertedPinned = best.pinned;
    }
    // Each click goes on to a cart, and to an order, once: counted in the click's own cells.
    const click = best;
    const flag = type === 'add_to_cart' ? 'carted' : 'converted';
    if (click !== undefined && !click[flag]) {
      click[flag] = true;
      const clickDay = Math.floor(click.t / DAY);
      const field = flag === 'carted' ? 6 : 7;
      for (const [cells, name] of [[this.cells, cellName(clickDay, click.key)], [this.products, `${clickDay}|${product}`], ...(click.pinned ? [[this.pins, cellName(clickDay, click.key)] as const] : [])] as const) {
        cells.get(name)![field]! += 1;
      }
    }
    if (type === 'add_to_cart') {
      this.#count(day, converted, product, 2, 1, convertedPinned);
      return;
    }
    const entry = `${orderId}|${cellName(day, converted!)}`;
    const firstOfOrder = orderId === undefined || !this.orders.has(entry);
    if (firstOfOrder) this.#count(day, converted!, product, 3, 1, convertedPinned);
    if (orderId !== undefined) this.orders.add(entry);
    const revenue = revenueOf(event, priceOf);
    this.#count(day, converted!, product, 4, revenue, convertedPinned);
    if (event.sender !== 'secret') this.#count(day, converted!, product, 5, revenue, convertedPinned);
    if (orderId === undefined) return;
    // What this purchase counted, to take back if its order is cancelled.
    const counted = this.ledger.get(orderId) ?? [];
    this.ledger.set(orderId, counted);
    const cells: [ReferenceCells, string][] = [[this.cells, cellName(day, converted!)], [this.products, `${day}|${product}`], ...(convertedPinned ? [[this.pins, cellName(day, converted!)] as [ReferenceCells, string]] : [])];
    for (const [field, amount] of [[3, firstOfOrder ? 1 : 0], [4, revenue], [5, event.sender !== 'secret' ? revenue : 0]] as const) {
      if (amount !== 0) for (const [map, name] of cells) counted.push({ cells: map, name, field, amount });
    }
  }

  /** The order's orders and revenue come out of the cells they were counted in; its later purchases count nothing. */
  cancelOrder(orderId: string): void {
    if (this.cancelled.has(orderId)) return;
    this.cancelled.add(orderId);
    for (const { cells, name, field, amount } of this.ledger.get(orderId) ?? []) {
      const cell = cells.get(name)!;
      cell[field] = Math.max(0, cell[field]! - amount);
    }
    this.ledger.delete(orderId);
  }

  #widget(widgetId: string | undefined, day: number): { widget: string; storefrontDay?: number } {
    if (widgetId === undefined) return { widget: '(none)' };
    if (this.registered.has(widgetId)) return { widget: widgetId };
    let names = this.dayWidgets.get(day);
    if (names === undefined) this.dayWidgets.set(day, (names = []));
    if (!names.includes(widgetId)) {
      if (names.length >= this.perDay) return { widget: '(other)' };
      names.push(widgetId);
    }
    return { widget: widgetId, storefrontDay: day };
  }

  /** A remembered key counted on `day`: a storefront widget's name is taken again on that day. */
  #onDay(key: ReferenceKey, day: number): ReferenceKey {
    if (key.storefrontDay === undefined || key.storefrontDay === day) return key;
    return { ...key, storefrontDay: undefined, ...this.#widget(key.widget, day) };
  }

  #remember(event: AttributedEvent, key: ReferenceKey, pinned: boolean): Click {
    const names = event.customerId === undefined ? ['s:' + event.sessionId] : ['c:' + event.customerId, 's:' + event.sessionId];
    const click: Click = { product: event.productId, key, t: event.timestamp, pinned, carted: false, converted: false };
    for (const name of names) {
      const clicks = this.shoppers.touch(name).clicks;
      const at = clicks.findIndex((c) => c.product === event.productId);
      if (at >= 0) clicks.splice(at, 1);
      clicks.push(click);
      if (clicks.length > 16) clicks.shift();
    }
    return click;
  }

  #count(day: number, key: ReferenceKey, product: string, field: number, amount: number, pinned: boolean): void {
    const perProduct = field === 0 ? [] : ([[this.products, `${day}|${product}`]] as const);
    const pins = pinned ? ([[this.pins, cellName(day, key)]] as const) : [];
    for (const [cells, name] of [[this.cells, cellName(day, key)] as const, ...perProduct, ...pins]) {
      let cell = cells.get(name);
      if (cell === undefined) cells.set(name, (cell = [0, 0, 0, 0, 0, 0, 0, 0]));
      cell[field]! += amount;
    }
  }
}

/**
 * A purchase's revenue: from a secret key, metadata.price (0 to 1e9, else the catalog's, else 0) ×
 * metadata.quantity (above 0 and at most 10,000, else 1); from anyone else, the lower of
 * metadata.price and the catalog price × metadata.quantity up to `MAX_STOREFRONT_QUANTITY` (10), and
 * nothing without a catalog price.
 */
function revenueOf(event: AttributedEvent, priceOf: PriceOf): number {
  const { price, quantity } = event.metadata ?? {};
  const validQuantity = typeof quantity === 'number' && quantity > 0;
  const catalog = priceOf(event.productId);
  if (event.sender === 'secret') {
    const unit = typeof price === 'number' && price >= 0 && price <= 1e9 ? price : (catalog ?? 0);
    return validQuantity && quantity <= 10_000 ? unit * quantity : unit;
  }
  if (catalog === undefined) return 0;
  const unit = typeof price === 'number' && price >= 0 ? Math.min(price, catalog) : catalog;
  return validQuantity ? unit * Math.min(quantity, 10) : unit;
}

export function cellName(day: number, key: ReferenceKey): string {
  return `${day}|${key.strategy}|${key.widget}|${key.experiment}|${key.variant}`;
}
