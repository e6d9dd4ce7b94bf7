// The widget's settings, read once from its own script tag:
//   <script src="https://recs.example/widget.js" data-key="pk_…" async></script>
// plus the optional data-customer-id with its data-customer-token (minted by the merchant's server:
// without it the service ignores the customerId), data-api, data-link-base, data-currency, data-locale,
// data-filters: a filter every carousel of the page applies (ANDed with a carousel's own), and
// data-shopify-cart (see cart-recs.ts).

export interface WidgetConfig {
  /** The shop's public key (pk_…). */
  key: string;
  /** Base URL of the service, ending in '/': where /api/… lives. */
  api: string;
  /** The logged-in shopper, rendered by the theme; undefined for guests. */
  customerId: string | undefined;
  /** Proof of customerId, rendered by the theme beside it (a public key's customerId needs one). */
  customerToken: string | undefined;
  /** Card links go to linkBase + handle. */
  linkBase: string;
  /** ISO 4217 code for price formatting; undefined: prices are shown as the API gives them. */
  currency: string | undefined;
  locale: string | undefined;
  /** A filter for every carousel (`filters=`), e.g. `available:true AND NOT tag:clearance`. */
  filters: string | undefined;
  /** data-shopify-cart: "false" never writes taken recommendations to the cart, "true" always; unset: on Shopify storefronts. */
  shopifyCart: string | undefined;
}

/** The filters= of a carousel: the page's and its own, both when both are given. */
export function combinedFilters(page: string | undefined, own: string | undefined): string | undefined {
  if (page === undefined || own === undefined) return page ?? own;
  return `(${page}) AND (${own})`;
}

function findScript(): HTMLScriptElement | undefined {
  const current = document.currentScript;
  if (current instanceof HTMLScriptElement && current.dataset.key) return current;
  // currentScript is null when the bundle runs from a module or a test harness: fall back to the tag.
  const tags = document.querySelectorAll<HTMLScriptElement>('script[data-key][src*="widget.js"]');
  return tags[tags.length - 1];
}

export function readConfig(): WidgetConfig | undefined {
  const script = findScript();
  const data = script?.dataset;
  if (script === undefined || data === undefined || !data.key) {
    console.warn('Pairwise: add data-key="pk_…" to the widget.js script tag');
    return undefined;
  }
  const api = new URL(data.api || '.', script.src || location.href).href;
  return {
    key: data.key,
    api: api.endsWith('/') ? api : api + '/',
    customerId: data.customerId || undefined,
    customerToken: data.customerToken || undefined,
    linkBase: data.linkBase ?? '/products/',
    currency: data.currency || undefined,
    locale: data.locale || undefined,
    filters: data.filters || undefined,
    shopifyCart: data.shopifyCart || undefined,
  };
}
