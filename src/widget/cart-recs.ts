// On a Shopify storefront: the recommendation each product was taken from (clicked in, or added to
// the cart from), written into the cart's attributes with Shopify's cart API (/cart/update.js), so
// that the order Shopify signs and sends to Pairwise carries it (note_attributes): that order's
// revenue is then attributed server-side, where no storefront can forge it. Kept in localStorage too,
// so every page adds to the same list; entries older than the attribution window are dropped.
import { MAX_CART_RECS, REC_IDS_ATTRIBUTE, type CartRecs } from '../api/cart-attribute.js';

const STORAGE_KEY = 'pairwise.cartRecs';
/** The service's default attribution window: an older click is no longer the order's cause. */
const MAX_AGE_MS = 7 * 86_400_000;

interface Taken {
  productId: string;
  recId: string;
  widgetId?: string;
  at: number;
}

declare global {
  interface Window {
    /** Set by every Shopify theme: the shop's domain and the storefront's route root (e.g. "/fr/"). */
    Shopify?: { shop?: string; routes?: { root?: string } };
  }
}

/** The bare id of a product id the API answered (`gid://shopify/Product/123` → `123`). */
function bareId(id: string): string {
  return id.slice(id.lastIndexOf('/') + 1);
}

export class CartRecsRecorder {
  constructor(readonly endpoint: string) {}

  /**
   * On a Shopify storefront (its theme sets window.Shopify.shop), unless the script tag says
   * data-shopify-cart="false": the recorder writing to the storefront's /cart/update.js.
   */
  static forPage(setting: string | undefined): CartRecsRecorder | undefined {
    const shopify = window.Shopify;
    if (setting === 'false' || (setting !== 'true' && typeof shopify?.shop !== 'string')) return undefined;
    const root = shopify?.routes?.root ?? '/';
    return new CartRecsRecorder(`${root.endsWith('/') ? root : root + '/'}cart/update.js`);
  }

  /**
   * Notes that `productId` was taken from the recommendation `recId` (shown in `widgetId`) and writes
   * the cart at once: a click leaves the page, and a keepalive request outlives it.
   */
  record(productId: string, recId: string, widgetId: string | undefined): void {
    const id = bareId(productId);
    const now = Date.now();
    const kept = load().filter((t) => t.productId !== id && now - t.at < MAX_AGE_MS);
    kept.push(widgetId ? { productId: id, recId, widgetId, at: now } : { productId: id, recId, at: now });
    const entries = kept.slice(-MAX_CART_RECS);
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify(entries));
    } catch {
      // Storage unavailable: this page's write still carries the entry.
    }
    void this.#write(entries);
  }

  async #write(entries: readonly Taken[]): Promise<void> {
    const value: CartRecs = {};
    for (const t of entries) value[t.productId] = t.widgetId === undefined ? [t.recId] : [t.recId, t.widgetId];
    try {
      await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ attributes: { [REC_IDS_ATTRIBUTE]: JSON.stringify(value) } }),
        credentials: 'same-origin',
        keepalive: true,
      });
    } catch {
      // The next take writes the whole list again.
    }
  }
}

function load(): Taken[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as Taken[]).filter((t) => typeof t?.productId === 'string' && typeof t.recId === 'string' && typeof t.at === 'number') : [];
  } catch {
    return [];
  }
}
