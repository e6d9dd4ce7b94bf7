// The shopper's cart as a carousel's context (data-context="cart"): on a Shopify storefront read from
// Shopify's cart API (/cart.js: its items' product ids) and read again whenever the page changes the
// cart through it (/cart/add, /cart/change, /cart/update, /cart/clear, seen as they go through
// fetch), when Pairwise.cartChanged() is called, and when the tab comes back into view; elsewhere the
// element's own data-product-ids, followed as the theme rewrites it. Listeners hear of a cart only
// when its set of products changed.

/** A cart's distinct product ids, in the order the cart holds them (the service sorts them anyway). */
export type CartIds = readonly string[];

type Listener = (ids: CartIds) => void;

/** Shopify's /cart.js answer, as far as it is read here. */
interface ShopifyCart {
  items?: { product_id?: number | string }[];
}

/** The cart API requests that change a Shopify cart. */
const CART_CHANGE = /\/cart\/(add|change|update|clear)(\.js)?(\?|$)/;

function sameSet(a: CartIds | undefined, b: CartIds): boolean {
  return a !== undefined && a.length === b.length && a.every((id) => b.includes(id));
}

/** Distinct non-empty ids of a comma list. */
export function idsOf(list: string | undefined): CartIds {
  const ids: string[] = [];
  for (const part of (list ?? '').split(',')) {
    const id = part.trim();
    if (id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The page's Shopify cart, read once and again after each change, shared by every cart carousel of the page. */
export class ShopifyCartSource {
  readonly #endpoint: string;
  readonly #listeners = new Set<Listener>();
  #ids: CartIds | undefined;
  #reading = false;
  #again = false;

  constructor(root: string) {
    this.#endpoint = `${root.endsWith('/') ? root : root + '/'}cart.js`;
    this.#watchFetch();
    document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && this.refresh());
  }

  /** Calls `listener` with the cart now (once read) and after every change of its products; returns the unsubscribe. */
  listen(listener: Listener): () => void {
    this.#listeners.add(listener);
    if (this.#ids !== undefined) listener(this.#ids);
    else this.refresh();
    return () => this.#listeners.delete(listener);
  }

  /** Reads the cart again (one read at a time; a request meanwhile reads once more after it). */
  refresh(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    void this.#read().finally(() => {
      this.#reading = false;
      if (this.#again) {
        this.#again = false;
        this.refresh();
      }
    });
  }

  async #read(): Promise<void> {
    try {
      const res = await fetch(this.#endpoint, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
      if (!res.ok) return;
      const cart = (await res.json()) as ShopifyCart;
      const ids = idsOf((cart.items ?? []).map((item) => String(item.product_id ?? '')).join(','));
      if (sameSet(this.#ids, ids)) return;
      this.#ids = ids;
      for (const listener of this.#listeners) listener(ids);
    } catch {
      // The next change or visit reads it again.
    }
  }

  /** Themes change the cart with fetch: each successful change is followed by a read. */
  #watchFetch(): void {
    const original = window.fetch;
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await original(...args);
      const input = args[0];
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (response.ok && CART_CHANGE.test(url.split('#')[0]!)) this.refresh();
      return response;
    };
  }
}

/**
 * The cart of a carousel outside Shopify: the element's data-product-ids, watched for the theme's
 * rewrites. Calls `listener` at once and after each change of its products; returns the stop.
 */
export function listenToAttribute(host: HTMLElement, listener: Listener): () => void {
  let ids = idsOf(host.dataset.productIds);
  listener(ids);
  const observer = new MutationObserver(() => {
    const next = idsOf(host.dataset.productIds);
    if (sameSet(ids, next)) return;
    ids = next;
    listener(ids);
  });
  observer.observe(host, { attributes: true, attributeFilter: ['data-product-ids'] });
  return () => observer.disconnect();
}
