// A recommendation carousel on a `data-pairwise` element: asks the service for its list (live over
// the socket), renders the cards keyed by product, and reports what the shopper does with them.
// A new list is applied in place (cards kept, moved, added, removed) and waits while the pointer or
// the keyboard focus is inside, so nothing moves under the shopper's hand. A cart placement
// (data-context="cart") asks with the cart's products and asks again each time they change.
import type { CartIds } from './cart-context.js';
import { cardSignature, renderCard, setSaved } from './card.js';
import { combinedFilters, type WidgetConfig } from './config.js';
import { hiddenProducts, savedProducts } from './storage.js';
import type { EventContext, Tracker } from './tracker.js';
import type { Subscription, Transport } from './transport.js';
import { bareId, type RecommendationList, type RecommendationQuery, type RecommendedProduct } from './types.js';

const TITLES: Record<string, string> = {
  'bought-together': 'Frequently bought together',
  similar: 'You may also like',
  trending: 'Trending now',
  personalized: 'Recommended for you',
  'collection-popular': 'Popular in this collection',
  'recently-viewed': 'Recently viewed',
};

interface CardEntry {
  node: HTMLLIElement;
  product: RecommendedProduct;
  signature: string;
  /** meta.recId of the latest list that showed the card: sent back on the events it causes. */
  recId?: string;
}

let instances = 0;

function focusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true;
  }
}

export class Carousel {
  readonly host: HTMLElement;
  readonly widgetId: string;
  readonly #config: WidgetConfig;
  readonly #tracker: Tracker;
  readonly #section: HTMLElement;
  readonly #track: HTMLUListElement;
  readonly #status: HTMLElement;
  readonly #prev: HTMLButtonElement;
  readonly #next: HTMLButtonElement;
  readonly #cards = new Map<string, CardEntry>();
  #order: string[] = [];
  #pending: RecommendationList | undefined;
  #pointerInside = false;
  #focusInside = false;
  #subscription: Subscription | undefined;
  /** A cart placement's products (productIds); undefined for other placements. */
  #cart: CartIds | undefined;

  constructor(host: HTMLElement, config: WidgetConfig, tracker: Tracker) {
    this.host = host;
    this.#config = config;
    this.#tracker = tracker;
    const data = host.dataset;
    const strategy = data.pairwise || 'auto';
    const n = ++instances;
    this.widgetId = data.widgetId || (n === 1 ? strategy : `${strategy}-${n}`);

    this.#section = document.createElement('section');
    this.#section.className = 'pw-carousel';
    this.#section.hidden = true;
    this.#section.setAttribute('aria-roledescription', 'carousel');
    const head = document.createElement('div');
    head.className = 'pw-head';
    const title = document.createElement(`h${Math.min(6, Math.max(1, Number(data.headingLevel) || 2))}`);
    title.className = 'pw-title';
    title.id = `pw-title-${n}`;
    title.textContent = data.title || TITLES[strategy] || 'Recommended';
    this.#section.setAttribute('aria-labelledby', title.id);
    const nav = document.createElement('div');
    nav.className = 'pw-nav';
    this.#prev = this.#navButton('pw-prev', '‹', 'Previous products', -1);
    this.#next = this.#navButton('pw-next', '›', 'Next products', 1);
    nav.append(this.#prev, this.#next);
    head.append(title, nav);
    this.#track = document.createElement('ul');
    this.#track.className = 'pw-track';
    this.#track.setAttribute('role', 'list');
    this.#status = document.createElement('p');
    this.#status.className = 'pw-sr';
    this.#status.setAttribute('aria-live', 'polite');
    this.#section.append(head, this.#track, this.#status);
    host.replaceChildren(this.#section);

    this.#track.addEventListener('scroll', () => this.#updateNav(), { passive: true });
    this.#track.addEventListener('click', (event) => this.#onClick(event));
    this.#track.addEventListener('auxclick', (event) => this.#onClick(event));
    this.#track.addEventListener('keydown', (event) => this.#onKey(event));
    this.#section.addEventListener('pointerenter', () => (this.#pointerInside = true));
    this.#section.addEventListener('pointerleave', () => {
      this.#pointerInside = false;
      this.#applyPending();
    });
    // Keyboard focus only: a button clicked with the mouse keeps focus, but the pointer is what matters then.
    this.#section.addEventListener('focusin', (event) => (this.#focusInside = focusVisible(event.target as Element)));
    this.#section.addEventListener('focusout', (event) => {
      if (event.relatedTarget instanceof Node && this.#section.contains(event.relatedTarget)) return;
      this.#focusInside = false;
      this.#applyPending();
    });
  }

  /** The GET /api/recommendations query of this element's data attributes. */
  query(sessionId: string): RecommendationQuery {
    const data = this.host.dataset;
    // widgetId names the placement: an experiment running on it chooses this shopper's variant.
    const query: RecommendationQuery = { limit: Math.min(24, Math.max(1, Number(data.limit) || 8)), sessionId, widgetId: this.widgetId };
    if (data.pairwise && data.pairwise !== 'auto') query.strategy = data.pairwise;
    if (data.productId) query.productId = data.productId;
    if (this.#cart !== undefined && this.#cart.length > 0) query.productIds = this.#cart.join(',');
    if (data.collectionId) query.collectionId = data.collectionId;
    if (data.exclude) query.exclude = data.exclude;
    const filters = combinedFilters(this.#config.filters, data.filters || undefined);
    if (filters !== undefined) query.filters = filters;
    if (data.diversity) query.diversity = data.diversity;
    if (this.#tracker.customerId !== undefined) query.customerId = this.#tracker.customerId;
    if (this.#tracker.customerToken !== undefined) query.customerToken = this.#tracker.customerToken;
    return query;
  }

  start(transport: Transport, sessionId: string): void {
    this.#subscription?.close();
    // data-live="false": the first list only, no live updates.
    const once = this.host.dataset.live === 'false';
    const subscription = transport.subscribe(this.query(sessionId), (list) => {
      if (once) subscription.close();
      this.show(list);
    });
    this.#subscription = subscription;
  }

  /**
   * A cart placement: asks for the cart's list whenever `listen` reports its products, and shows
   * nothing while the cart is empty. `listen` calls back at once or once the cart is read.
   */
  followCart(transport: Transport, sessionId: string, listen: (listener: (ids: CartIds) => void) => void): void {
    listen((ids) => {
      this.#cart = ids;
      if (ids.length > 0) return this.start(transport, sessionId);
      this.#subscription?.close();
      this.#subscription = undefined;
      this.#pending = undefined;
      this.#render([], undefined);
    });
  }

  /** A new list: applied now, or when the pointer and focus have left. */
  show(list: RecommendationList): void {
    this.#pending = list;
    if (this.#pointerInside || this.#focusInside) this.#section.dataset.pwPending = '';
    else this.#applyPending();
  }

  #applyPending(): void {
    const list = this.#pending;
    if (list === undefined || this.#pointerInside || this.#focusInside) return;
    this.#pending = undefined;
    delete this.#section.dataset.pwPending;
    // data-backfill="false": only what the strategy asked for produced (e.g. no trending filling in "Recently viewed").
    const only = this.host.dataset.backfill === 'false' ? list.meta.strategy : undefined;
    this.#render(list.products.filter((product) => !hiddenProducts.has(bareId(product.id)) && (only === undefined || product.strategy === only)), list.meta.recId);
  }

  #render(products: RecommendedProduct[], recId: string | undefined): void {
    const anchor = this.#anchor();
    const next: string[] = [];
    for (const product of products) {
      const id = bareId(product.id);
      if (next.includes(id)) continue;
      next.push(id);
      const signature = cardSignature(product);
      const entry = this.#cards.get(id);
      if (entry !== undefined && entry.signature === signature) {
        entry.product = product;
        entry.recId = recId;
        continue;
      }
      const node = renderCard(product, this.#config);
      if (entry !== undefined) {
        this.#tracker.unobserve(entry.node);
        entry.node.replaceWith(node);
      }
      this.#cards.set(id, { node, product, signature, recId });
      this.#tracker.observe(node, () => ({ productId: id, ...this.#context(id) }));
    }
    for (const [id, entry] of this.#cards) {
      if (next.includes(id)) continue;
      this.#tracker.unobserve(entry.node);
      entry.node.remove();
      this.#cards.delete(id);
    }
    // Moves only the cards out of place: the others keep their nodes, focus and images.
    next.forEach((id, index) => {
      const node = this.#cards.get(id)!.node;
      if (this.#track.children[index] !== node) this.#track.insertBefore(node, this.#track.children[index] ?? null);
      node.setAttribute('aria-label', `${index + 1} of ${next.length}`);
    });
    this.#order = next;
    this.#section.hidden = next.length === 0;
    this.#restore(anchor);
    this.#updateNav();
  }

  /** The first card in view and its offset, to keep it where it was after a re-render. */
  #anchor(): { id: string; left: number } | undefined {
    const trackLeft = this.#track.getBoundingClientRect().left;
    for (const id of this.#order) {
      const left = this.#cards.get(id)!.node.getBoundingClientRect().left - trackLeft;
      if (left >= -1) return { id, left };
    }
    return undefined;
  }

  #restore(anchor: { id: string; left: number } | undefined): void {
    const node = anchor && this.#cards.get(anchor.id)?.node;
    if (!node || this.#track.scrollLeft === 0) return;
    const moved = node.getBoundingClientRect().left - this.#track.getBoundingClientRect().left - anchor.left;
    if (moved !== 0) this.#track.scrollBy({ left: moved, behavior: 'instant' as ScrollBehavior });
  }

  #context(id: string): EventContext {
    const entry = this.#cards.get(id);
    const context: EventContext = { widgetId: this.widgetId, metadata: { position: this.#order.indexOf(id) + 1, strategy: entry?.product.strategy } };
    // A pinned card names its rule: the shop's statistics tell pins from organic items by it.
    if (entry?.product.ruleId !== undefined) context.metadata!.ruleId = entry.product.ruleId;
    if (entry?.recId) context.recId = entry.recId;
    return context;
  }

  #onClick(event: MouseEvent): void {
    const target = event.target as Element;
    const card = target.closest<HTMLLIElement>('.pw-card');
    const id = card?.dataset.productId;
    if (card == null || id === undefined) return;
    const entry = this.#cards.get(id);
    if (target.closest('.pw-link') !== null) {
      if (event.type === 'click' || event.button === 1) this.#tracker.track('click', id, this.#context(id));
    } else if (target.closest('.pw-add') !== null) {
      this.#tracker.track('add_to_cart', id, this.#context(id));
      const add = card.querySelector('.pw-add')!;
      add.textContent = 'Added ✓';
      setTimeout(() => (add.textContent = 'Add to cart'), 2000);
      this.#announce(`${entry?.product.title ?? 'Product'} added to cart`);
      // The theme adds it to its own cart: listen for this event.
      card.dispatchEvent(new CustomEvent('pairwise:add-to-cart', { bubbles: true, detail: { productId: id, product: entry?.product, widgetId: this.widgetId } }));
    } else if (target.closest('.pw-save') !== null) {
      const saved = !savedProducts.has(id);
      setSaved(card.querySelector('.pw-save')!, saved);
      if (saved) {
        savedProducts.add(id);
        this.#tracker.track('save', id, this.#context(id));
      } else savedProducts.delete(id);
    } else if (target.closest('.pw-hide') !== null) {
      this.#tracker.track('dismiss', id, this.#context(id));
      hiddenProducts.add(id);
      this.#hide(id);
    }
  }

  /** Removes a dismissed card at once; focus moves to its neighbour instead of falling to <body>. */
  #hide(id: string): void {
    const index = this.#order.indexOf(id);
    const entry = this.#cards.get(id);
    if (entry === undefined) return;
    const hadFocus = entry.node.contains(document.activeElement);
    this.#tracker.unobserve(entry.node);
    entry.node.remove();
    this.#cards.delete(id);
    this.#order.splice(index, 1);
    this.#announce(`${entry.product.title} hidden`);
    const neighbour = this.#order[Math.min(index, this.#order.length - 1)];
    if (hadFocus) (neighbour === undefined ? this.#section : this.#cards.get(neighbour)!.node.querySelector<HTMLElement>('.pw-hide'))?.focus();
    this.#section.hidden = this.#order.length === 0;
    this.#updateNav();
  }

  /** Arrow keys move between cards (same control), Home/End to the ends. */
  #onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    const card = target.closest<HTMLLIElement>('.pw-card');
    if (card === null || !['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
    const index = this.#order.indexOf(card.dataset.productId ?? '');
    const last = this.#order.length - 1;
    const to = event.key === 'Home' ? 0 : event.key === 'End' ? last : index + (event.key === 'ArrowRight' ? 1 : -1);
    if (to < 0 || to > last || to === index) return;
    event.preventDefault();
    const node = this.#cards.get(this.#order[to]!)!.node;
    const selector = ['.pw-add', '.pw-save', '.pw-hide'].find((s) => target.matches(s)) ?? '.pw-link';
    node.querySelector<HTMLElement>(selector)?.focus({ preventScroll: true });
    node.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }

  #navButton(className: string, text: string, label: string, direction: number): HTMLButtonElement {
    const node = document.createElement('button');
    node.type = 'button';
    node.className = className;
    node.textContent = text;
    node.setAttribute('aria-label', label);
    node.addEventListener('click', () => this.#track.scrollBy({ left: direction * this.#track.clientWidth * 0.9 }));
    return node;
  }

  #updateNav(): void {
    const { scrollLeft, scrollWidth, clientWidth } = this.#track;
    this.#prev.disabled = scrollLeft <= 1;
    this.#next.disabled = scrollLeft + clientWidth >= scrollWidth - 1;
  }

  #announce(text: string): void {
    this.#status.textContent = text;
  }
}
