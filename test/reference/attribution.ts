// The attribution rules (src/analytics/attribution.ts) written the obvious way, in plain Maps and
// arrays with string keys: the compact model must count exactly what this counts. No day or cell
// bounds, no product bounds and no order memory bound (streams in tests stay below them); the shopper table is the
// same LRU bound as the compact one's, so eviction is compared too.
import { parseRecId } from '../../src/engine/attribution/rec-id.js';
import { orderIdOf } from '../../src/engine/event.js';
import { revenueOf, type AttributedEvent, type PriceOf } from '../../src/engine/attribution/attribution.js';
import { ReferenceLru, ReferencePooledLru } from './shopper-state.js';

const DAY = 86_400_000;

export interface ReferenceKey {
  strategy: number;
  widget: string;
  experiment: number;
  variant: number;
}

interface Shopper {
  shown: { product: string; key: ReferenceKey }[];
  clicks: { product: string; key: ReferenceKey; t: number }[];
}

/** Counters by `day|strategy|widget|experiment|variant`: impressions, clicks, add-to-carts, orders, revenue. */
export type ReferenceCells = Map<string, number[]>;

/** Counters by `day|productId`, the same five but impressions (not counted per product): what each product earned per day. */
export type ReferenceProductCells = Map<string, number[]>;

export class ReferenceAttribution {
  readonly cells: ReferenceCells = new Map();
  readonly products: ReferenceProductCells = new Map();
  readonly shoppers: ReferenceLru<Shopper> | ReferencePooledLru<Shopper>;
  readonly widgets: string[] = [];
  readonly orders = new Set<string>();

  constructor(
    readonly windowMs: number,
    /** One pool for all shoppers, or customers' and sessions' own. */
    capacity: number | readonly [number, number],
    readonly maxWidgets: number,
  ) {
    const create = (): Shopper => ({ shown: [], clicks: [] });
    this.shoppers = typeof capacity === 'number' ? new ReferenceLru(capacity, create) : new ReferencePooledLru(['c:', 's:'], capacity, create);
  }

  apply(event: AttributedEvent, priceOf: PriceOf): void {
    const { type, productId: product, timestamp: t } = event;
    if (!['impression', 'click', 'add_to_cart', 'purchase'].includes(type)) return;
    const rec = event.recId === undefined ? undefined : parseRecId(event.recId);
    const key = rec && { strategy: rec.strategy, widget: this.#widget(event.widgetId), experiment: rec.experiment, variant: rec.variant };
    const day = Math.floor(t / DAY);
    if (type === 'impression') {
      if (!key) return;
      this.#count(day, key, product, 0, 1);
      const shown = this.shoppers.touch('s:' + event.sessionId).shown;
      shown.push({ product, key });
      if (shown.length > 32) shown.shift();
      return;
    }
    if (type === 'click') {
      const session = this.shoppers.get('s:' + event.sessionId);
      const clickKey = key ?? session?.shown.findLast((s) => s.product === product)?.key;
      if (!clickKey) return;
      this.#count(day, clickKey, product, 1, 1);
      this.#remember(event, clickKey);
      return;
    }
    let converted = key;
    if (converted) this.#remember(event, converted);
    else {
      let best: { key: ReferenceKey; t: number } | undefined;
      for (const name of [event.customerId === undefined ? undefined : 'c:' + event.customerId, 's:' + event.sessionId]) {
        const click = name === undefined ? undefined : this.shoppers.get(name)?.clicks.find((c) => c.product === product);
        if (click && click.t <= t && t - click.t <= this.windowMs && (best === undefined || click.t > best.t)) best = click;
      }
      if (!best) return;
      converted = best.key;
    }
    if (type === 'add_to_cart') {
      this.#count(day, converted, product, 2, 1);
      return;
    }
    const orderId = orderIdOf(event);
    const entry = `${orderId}|${cellName(day, converted)}`;
    if (orderId === undefined || !this.orders.has(entry)) this.#count(day, converted, product, 3, 1);
    if (orderId !== undefined) this.orders.add(entry);
    this.#count(day, converted, product, 4, revenueOf(event, priceOf));
  }

  #widget(widgetId: string | undefined): string {
    if (widgetId === undefined) return '(none)';
    if (this.widgets.includes(widgetId)) return widgetId;
    if (this.widgets.length >= this.maxWidgets) return '(other)';
    this.widgets.push(widgetId);
    return widgetId;
  }

  #remember(event: AttributedEvent, key: ReferenceKey): void {
    const names = event.customerId === undefined ? ['s:' + event.sessionId] : ['c:' + event.customerId, 's:' + event.sessionId];
    for (const name of names) {
      const clicks = this.shoppers.touch(name).clicks;
      const at = clicks.findIndex((c) => c.product === event.productId);
      if (at >= 0) clicks.splice(at, 1);
      clicks.push({ product: event.productId, key, t: event.timestamp });
      if (clicks.length > 16) clicks.shift();
    }
  }

  #count(day: number, key: ReferenceKey, product: string, field: number, amount: number): void {
    const perProduct = field === 0 ? [] : ([[this.products, `${day}|${product}`]] as const);
    for (const [cells, name] of [[this.cells, cellName(day, key)] as const, ...perProduct]) {
      let cell = cells.get(name);
      if (cell === undefined) cells.set(name, (cell = [0, 0, 0, 0, 0]));
      cell[field]! += amount;
    }
  }
}

export function cellName(day: number, key: ReferenceKey): string {
  return `${day}|${key.strategy}|${key.widget}|${key.experiment}|${key.variant}`;
}
