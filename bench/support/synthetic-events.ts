// The synthetic store's event stream, generated in chunks (never all events at once): shopping
// sessions of views and clicks, some leading to add_to_cart and to orders of 1-8 items
// (metadata.orderId) drawn with co-purchase structure (complements and related themes), ~30 % of
// sessions by a logged-in customer who comes back, and some impressions, saves and dismissals.
// Sessions run concurrently (their events interleave), event time advances evenly over the days.
import type { EngineEvent, EventType } from '../../src/engine/event.js';
import { prng } from './prng.js';
import type { SyntheticStore } from './synthetic-store.js';

type Draft = { -readonly [K in keyof EngineEvent]: EngineEvent[K] };

interface Session {
  id: string;
  customer: number;
  script: Draft[];
  next: number;
  viewed: boolean;
}

/** Sessions open at once: their events interleave in the stream. */
const CONCURRENT_SESSIONS = 256;
/** Recently ended sessions remembered for the request workload (they are in the engine's shopper maps). */
const RECENT_SESSIONS = 4096;
const CUSTOMER_SHARE = 0.3;
const MAX_ORDER_ITEMS = 8;

export class SyntheticEventStream {
  readonly #random: () => number;
  readonly #active: Session[] = [];
  readonly #recent: string[] = [];
  readonly #stepMs: number;
  #produced = 0;
  #sessions = 0;
  #orders = 0;
  readonly typeCounts: Record<EventType, number> = { view: 0, click: 0, impression: 0, save: 0, dismiss: 0, add_to_cart: 0, purchase: 0 };
  readonly orderSizes = new Array<number>(MAX_ORDER_ITEMS + 1).fill(0);

  constructor(readonly store: SyntheticStore) {
    this.#random = prng(store.shape.seed + 1);
    this.#stepMs = (store.shape.days * 86_400_000) / store.shape.events;
    for (let i = 0; i < CONCURRENT_SESSIONS; i++) this.#active.push(this.#newSession());
  }

  get produced(): number {
    return this.#produced;
  }

  get sessions(): number {
    return this.#sessions;
  }

  get orders(): number {
    return this.#orders;
  }

  /** Event time of the last event produced. */
  get lastTimestamp(): number {
    return this.store.startTime + Math.floor((this.#produced - 1) * this.#stepMs);
  }

  /** Ids of sessions that ended recently and viewed something, newest last. */
  recentSessions(): readonly string[] {
    return this.#recent;
  }

  /** The next `count` events, in time order. */
  nextChunk(count: number): EngineEvent[] {
    const chunk: EngineEvent[] = new Array(count);
    const random = this.#random;
    for (let i = 0; i < count; i++) {
      const slot = Math.floor(random() * CONCURRENT_SESSIONS);
      const session = this.#active[slot]!;
      const event = session.script[session.next++]!;
      event.timestamp = this.store.startTime + Math.floor(this.#produced * this.#stepMs);
      this.#produced++;
      this.typeCounts[event.type]++;
      chunk[i] = event;
      if (session.next === session.script.length) {
        if (session.viewed) {
          this.#recent.push(session.id);
          if (this.#recent.length > RECENT_SESSIONS) this.#recent.shift();
        }
        this.#active[slot] = this.#newSession();
      }
    }
    return chunk;
  }

  #newSession(): Session {
    const store = this.store;
    const random = this.#random;
    const id = `sess_${(this.#sessions++).toString(36)}`;
    const customer = random() < CUSTOMER_SHARE ? store.customerSampler.pick(random()) : -1;
    const customerId = customer >= 0 ? store.customerIds[customer] : undefined;
    const script: Draft[] = [];
    const push = (type: EventType, productId: string, metadata?: Record<string, unknown>) =>
      script.push({ type, productId, sessionId: id, customerId, metadata, timestamp: 0 });
    const idOf = (i: number) => store.products[i]!.id;

    // Views: geometric, mean ~5 (returning customers browse a little longer), within a theme.
    let views = 1;
    while (views < 40 && random() < (customer >= 0 ? 0.85 : 0.8)) views++;
    let theme = customer >= 0 && random() < 0.7 ? store.homeThemes[customer * 2 + (random() < 0.5 ? 0 : 1)]! : store.themeSampler.pick(random());
    const cart: number[] = [];
    for (let v = 0; v < views; v++) {
      if (random() < 0.12) theme = store.relatedTheme(theme, random());
      if (random() < 0.002) {
        push('view', store.unknownIds[Math.floor(random() * store.unknownIds.length)]!);
        continue;
      }
      const p = random() < 0.85 ? store.fromTheme(theme, random()) : store.productSampler.pick(random());
      if (random() < 0.15) {
        // Reached through a recommendation widget: what it showed, then the click.
        push('impression', idOf(p));
        if (random() < 0.5) {
          const shown = store.fromTheme(theme, random());
          push('impression', idOf(shown));
          if (random() < 0.08) push('dismiss', idOf(shown));
        }
        push('click', idOf(p));
      }
      push('view', idOf(p));
      if (random() < 0.012) push('save', idOf(p));
      if (random() < 0.06) {
        push('add_to_cart', idOf(p));
        cart.push(p);
        if (random() < 0.3) {
          const complement = store.complements[p * 2 + (random() < 0.7 ? 0 : 1)]!;
          push('add_to_cart', idOf(complement));
          cart.push(complement);
        }
      }
    }

    // Checkout: the cart, plus sometimes items of a related theme picked at checkout.
    if (cart.length > 0 && random() < 0.45) {
      const items = [...new Set(cart)].slice(0, MAX_ORDER_ITEMS);
      while (items.length < MAX_ORDER_ITEMS && random() < 0.25) {
        const extra = random() < 0.5 ? store.complements[items[0]! * 2 + 1]! : store.fromTheme(store.relatedTheme(theme, random()), random());
        if (!items.includes(extra)) items.push(extra);
      }
      const orderId = `ord_${this.#orders++}`;
      this.orderSizes[items.length]!++;
      for (const item of items) push('purchase', idOf(item), { orderId, quantity: 1 + Math.floor(random() ** 3 * 3), price: store.products[item]!.price });
    }
    return { id, customer, script, next: 0, viewed: views > 0 };
  }
}
