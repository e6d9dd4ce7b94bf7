// Entry of /widget.js: reads the script tag, opens the page's one connection, mounts a carousel on
// every [data-pairwise] element, sends a view for every [data-pairwise-view], wires the theme's own
// add-to-cart buttons ([data-pairwise-add-to-cart]) and publishes window.Pairwise for theme code.
import { listenToAttribute, ShopifyCartSource, type CartIds } from './cart-context.js';
import { CartRecsRecorder } from './cart-recs.js';
import { Carousel } from './carousel.js';
import { readConfig } from './config.js';
import { getSessionId } from './storage.js';
import { injectStyles } from './styles.js';
import { Tracker, type EventContext } from './tracker.js';
import { Transport } from './transport.js';
import type { EventType } from './types.js';

/** window.Pairwise: the hooks a theme can call (docs/widget.md). */
export interface PairwiseApi {
  readonly version: string;
  readonly sessionId: string;
  /** Events not acknowledged by the service yet. */
  readonly pending: number;
  /** The theme's own add-to-cart: `Pairwise.addToCart('123')`. */
  addToCart(productId: string, context?: EventContext): void;
  /** Any event, e.g. `Pairwise.track('purchase', '123', { metadata: { orderId: 'o_1' } })`. */
  track(type: EventType, productId: string, context?: EventContext): void;
  /**
   * The shopper logged in (or out, with null), with the customer token the merchant's server minted
   * for them: later events and newly mounted widgets use it.
   */
  identify(customerId: string | null, customerToken?: string | null): void;
  /** Mounts widgets and sends views for elements added since the last scan. */
  scan(): void;
  /** The theme changed the Shopify cart without fetch (an XMLHttpRequest, a form post answered in place): cart carousels read it again. */
  cartChanged(): void;
}

type QueuedCall = (api: PairwiseApi) => void;

declare global {
  interface Window {
    Pairwise?: PairwiseApi;
    /** Calls made before the script loaded: `(window.pairwiseQueue ||= []).push((p) => p.addToCart('123'))`. */
    pairwiseQueue?: QueuedCall[] | { push(call: QueuedCall): void };
  }
}

const mounted = new WeakSet<Element>();

function boot(): void {
  if (window.Pairwise !== undefined) return;
  const config = readConfig();
  if (config === undefined) return;
  const transport = new Transport(config);
  const tracker = new Tracker(transport, config.customerId, config.customerToken);
  transport.onTokenRefused = () => tracker.dropToken('refused by the service');
  const cart = CartRecsRecorder.forPage(config.shopifyCart);
  if (cart !== undefined) tracker.onTaken = (productId, recId, widgetId) => cart.record(productId, recId, widgetId);
  const sessionId = getSessionId();
  let shopifyCart: ShopifyCartSource | undefined;
  /** Where a cart carousel reads its cart: its own data-product-ids, else Shopify's cart; undefined: neither. */
  const cartOf = (host: HTMLElement): ((listener: (ids: CartIds) => void) => void) | undefined => {
    if (host.dataset.productIds !== undefined) return (listener) => void listenToAttribute(host, listener);
    const root = window.Shopify?.shop === undefined ? undefined : window.Shopify.routes?.root ?? '/';
    if (root === undefined) return undefined;
    shopifyCart ??= new ShopifyCartSource(root);
    const source = shopifyCart;
    return (listener) => void source.listen(listener);
  };

  const scan = () => {
    const widgets = document.querySelectorAll<HTMLElement>('[data-pairwise]');
    if (widgets.length > 0) injectStyles();
    widgets.forEach((host) => {
      if (mounted.has(host)) return;
      mounted.add(host);
      const carousel = new Carousel(host, config, tracker);
      if (host.dataset.context !== 'cart') return carousel.start(transport, sessionId);
      const cart = cartOf(host);
      if (cart === undefined) console.warn('Pairwise: a data-context="cart" carousel needs data-product-ids outside Shopify');
      else carousel.followCart(transport, sessionId, cart);
    });
    document.querySelectorAll<HTMLElement>('[data-pairwise-view]').forEach((node) => {
      if (mounted.has(node) || !node.dataset.pairwiseView) return;
      mounted.add(node);
      tracker.track('view', node.dataset.pairwiseView);
    });
  };

  // The theme's own add-to-cart buttons, by attribute: <button data-pairwise-add-to-cart="123">.
  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest?.<HTMLElement>('[data-pairwise-add-to-cart]');
    if (button?.dataset.pairwiseAddToCart) tracker.track('add_to_cart', button.dataset.pairwiseAddToCart, { widgetId: button.dataset.widgetId });
  });

  const api: PairwiseApi = {
    version: '1',
    sessionId,
    get pending() {
      return transport.pending;
    },
    addToCart: (productId, context) => void tracker.track('add_to_cart', productId, context),
    track: (type, productId, context) => void tracker.track(type, productId, context),
    identify: (customerId, customerToken) => tracker.identify(customerId ?? undefined, customerToken ?? undefined),
    scan,
    cartChanged: () => shopifyCart?.refresh(),
  };
  window.Pairwise = api;
  const queued = Array.isArray(window.pairwiseQueue) ? window.pairwiseQueue : [];
  window.pairwiseQueue = { push: (call: QueuedCall) => call(api) };

  const start = () => {
    scan();
    // Themes that render sections later (quick views, infinite scroll) get widgets too.
    let queuedScan = false;
    new MutationObserver(() => {
      if (queuedScan) return;
      queuedScan = true;
      requestAnimationFrame(() => {
        queuedScan = false;
        scan();
      });
    }).observe(document.body, { childList: true, subtree: true });
    for (const call of queued) call(api);
    document.dispatchEvent(new CustomEvent('pairwise:ready', { detail: api }));
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}

boot();
