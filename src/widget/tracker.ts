// Shopper events: each gets the session, the logged-in customer and a fresh messageId, then goes to
// the transport. Impressions are counted when a card is really seen: at least half of it in the
// viewport for IMPRESSION_DWELL_MS while the page is visible, once per card per page view.
import { getSessionId, randomId } from './storage.js';
import type { Transport } from './transport.js';
import type { EventType, WireEvent } from './types.js';

const IMPRESSION_DWELL_MS = 500;
const IMPRESSION_THRESHOLD = 0.5;

export interface EventContext {
  widgetId?: string;
  /** meta.recId of the recommendation that showed the product (attribution). */
  recId?: string;
  metadata?: Record<string, unknown>;
}

export class Tracker {
  readonly #transport: Transport;
  #customerId: string | undefined;
  #customerToken: string | undefined;
  /** `${widgetId}|${productId}` of the cards already counted on this page view. */
  readonly #seen = new Set<string>();
  readonly #timers = new Map<Element, number>();
  readonly #cards = new WeakMap<Element, () => EventContext & { productId: string }>();
  readonly #observer: IntersectionObserver | undefined;
  /** Told of each click or add-to-cart that came from a recommendation (its recId), when set. */
  onTaken: ((productId: string, recId: string, widgetId: string | undefined) => void) | undefined;

  constructor(transport: Transport, customerId: string | undefined, customerToken: string | undefined) {
    this.#transport = transport;
    this.identify(customerId, customerToken);
    this.#observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => entries.forEach((entry) => this.#onIntersection(entry)), { threshold: IMPRESSION_THRESHOLD })
        : undefined;
  }

  get customerId(): string | undefined {
    return this.#customerId;
  }

  get customerToken(): string | undefined {
    return this.#customerToken;
  }

  /** The logged-in shopper and the proof of it (undefined: a guest). */
  identify(customerId: string | undefined, customerToken: string | undefined): void {
    this.#customerId = customerId || undefined;
    this.#customerToken = (this.#customerId && customerToken) || undefined;
  }

  /**
   * The service refused the token (or it expired here): from now on this page is its session, as
   * a guest's; events and lists go on, without the customer. A cached page may carry a stale token.
   */
  dropToken(why: string): void {
    if (this.#customerToken === undefined && this.#customerId === undefined) return;
    console.warn(`Pairwise: the customer token is no longer good (${why}); going on as this browser session`);
    this.identify(undefined, undefined);
  }

  /** Whether the token's expiry (its third field, Unix seconds) has passed: it would only be refused. */
  #tokenExpired(): boolean {
    const expires = Number(this.#customerToken?.split('.')[2]);
    return Number.isFinite(expires) && expires * 1000 <= Date.now();
  }

  track(type: EventType, productId: string, context: EventContext = {}): WireEvent {
    if (this.#customerToken !== undefined && this.#tokenExpired()) this.dropToken('expired');
    const event: WireEvent = { type, productId: String(productId), sessionId: getSessionId(), messageId: randomId('m_') };
    if (this.#customerId !== undefined) event.customerId = this.#customerId;
    if (this.#customerToken !== undefined) event.customerToken = this.#customerToken;
    if (context.widgetId) event.widgetId = context.widgetId;
    if (context.recId) event.recId = context.recId;
    if (context.metadata && Object.keys(context.metadata).length > 0) event.metadata = context.metadata;
    this.#transport.send(event);
    if ((type === 'click' || type === 'add_to_cart') && event.recId) this.onTaken?.(event.productId, event.recId, event.widgetId);
    return event;
  }

  /** Counts an impression of `card` once it is really seen; `describe` is read at that moment (position may have moved). */
  observe(card: Element, describe: () => EventContext & { productId: string }): void {
    this.#cards.set(card, describe);
    this.#observer?.observe(card);
  }

  unobserve(card: Element): void {
    this.#observer?.unobserve(card);
    clearTimeout(this.#timers.get(card));
    this.#timers.delete(card);
  }

  #onIntersection(entry: IntersectionObserverEntry): void {
    const card = entry.target;
    if (!entry.isIntersecting || entry.intersectionRatio < IMPRESSION_THRESHOLD) {
      clearTimeout(this.#timers.get(card));
      this.#timers.delete(card);
      return;
    }
    if (this.#timers.has(card)) return;
    this.#timers.set(
      card,
      window.setTimeout(() => {
        this.#timers.delete(card);
        const describe = this.#cards.get(card);
        if (describe === undefined || document.visibilityState !== 'visible') return;
        const { productId, ...context } = describe();
        const key = `${context.widgetId ?? ''}|${productId}`;
        this.#observer?.unobserve(card);
        if (this.#seen.has(key)) return;
        this.#seen.add(key);
        this.track('impression', productId, context);
      }, IMPRESSION_DWELL_MS),
    );
  }
}
