// The demo storefront's pages under /demo (server-rendered HTML from the demo shop's catalog, with
// the widget on them) and the sample-shopper switch, remembered in a cookie scoped to /demo.
import type { DemoStorefront } from '../../demo/demo-storefront.js';
import { collectionPage } from '../../demo/pages/collection-page.js';
import { homePage } from '../../demo/pages/home-page.js';
import { notFoundPage } from '../../demo/pages/not-found-page.js';
import { productPage } from '../../demo/pages/product-page.js';
import { productByHandle, type PageContext } from '../../demo/pages/shop-view.js';
import { AppError } from '../../errors.js';
import type { Exchange } from '../../transport/exchange.js';
import type { Handler } from '../../transport/route.js';

const COOKIE = 'pairwise_demo_shopper';
/** Pages reflect the catalog right now; the live parts come from the widget anyway. */
const PAGE_HEADERS = { 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' };
const HTML = 'text/html; charset=utf-8';

function cookieValue(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return percentDecoded(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A value that is not percent-encoding was not written by sign-in: it names nobody (signed out), not a 500. */
function percentDecoded(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

function context(storefront: DemoStorefront, exchange: Exchange): PageContext {
  const signedIn = cookieValue(exchange.request.headers?.cookie ?? '', COOKIE);
  return {
    storefront,
    catalog: storefront.catalog(),
    shopper: signedIn === undefined ? undefined : storefront.shopper(signedIn),
    path: exchange.request.url,
  };
}

export const DEMO_PAGE_HEADERS = ['cookie'] as const;

export function getDemoHome(storefront: DemoStorefront): Handler {
  return (exchange) => exchange.send(200, HTML, homePage(context(storefront, exchange)), PAGE_HEADERS);
}

/** A shopper who follows a stale link gets a page of the shop (404), not the API's problem+json. */
function notFound(exchange: Exchange, ctx: PageContext, what: string): void {
  exchange.send(404, HTML, notFoundPage(ctx, what), PAGE_HEADERS);
}

export function getDemoCollection(storefront: DemoStorefront): Handler {
  return (exchange) => {
    const ctx = context(storefront, exchange);
    const collection = storefront.collection(exchange.params[0] ?? '');
    if (collection === undefined) return notFound(exchange, ctx, 'This collection does not exist (any more).');
    exchange.send(200, HTML, collectionPage(ctx, collection), PAGE_HEADERS);
  };
}

export function getDemoProduct(storefront: DemoStorefront): Handler {
  return (exchange) => {
    const ctx = context(storefront, exchange);
    const product = productByHandle(ctx.catalog, exchange.params[0] ?? '');
    if (product === undefined) return notFound(exchange, ctx, 'This product is not in the shop (any more).');
    exchange.send(200, HTML, productPage(ctx, product), PAGE_HEADERS);
  };
}

/** Any other path under /demo. */
export function getDemoNotFound(storefront: DemoStorefront): Handler {
  return (exchange) => notFound(exchange, context(storefront, exchange), 'There is no such page in this shop.');
}

/** GET /demo/sign-in?shopper=<customerId>|''&back=/demo/… — sets (or clears) the cookie, then back. */
export function getDemoSignIn(storefront: DemoStorefront): Handler {
  return (exchange) => {
    const params = new URLSearchParams(exchange.request.query);
    const shopper = params.get('shopper') ?? '';
    const back = params.get('back') ?? '/demo';
    if (shopper !== '' && storefront.shopper(shopper) === undefined) throw new AppError('not_found', `"${shopper}" is not one of the sample shoppers`);
    // Only back to a demo page: never an open redirect.
    const location = /^\/demo(\/[A-Za-z0-9_.~%/-]*)?$/.test(back) ? back : '/demo';
    const cookie =
      shopper === '' ? `${COOKIE}=; Path=/demo; Max-Age=0; SameSite=Lax` : `${COOKIE}=${encodeURIComponent(shopper)}; Path=/demo; SameSite=Lax; HttpOnly`;
    exchange.send(303, HTML, `<a href="${location}">Continue</a>`, { location, 'set-cookie': cookie, 'cache-control': 'no-store' });
  };
}
