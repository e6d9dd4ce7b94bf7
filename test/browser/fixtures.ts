// The merchant storefront the widget tests run on: 12 products with pictures, a trending order
// fixed by purchases (1 > 2 > 3, then 4…12 by id, no signal), and pages with widgets on them.
import { postEvents, putProducts, wireProduct, type TestService } from '../support/service.js';
import { startStorefront, type Storefront } from '../support/browser.js';

export const PRODUCTS = 12;

function svg(id: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><rect width="400" height="400" fill="#dfe7fd"/><text x="200" y="210" text-anchor="middle" font-size="40">${id}</text></svg>`;
}

export async function seedShop(t: TestService, storefront: Storefront): Promise<void> {
  await putProducts(
    t,
    Array.from({ length: PRODUCTS }, (_, i) =>
      wireProduct(String(i + 1), {
        title: `Product ${i + 1}`,
        handle: `product-${i + 1}`,
        image: `${storefront.url}/img/${i + 1}.svg`,
        price: `${10 + i}.00`,
        compareAtPrice: i === 0 ? '15.00' : null,
        vendor: i % 2 === 0 ? 'Acme' : 'Globex',
      }),
    ),
  );
  const purchases = (productId: string, n: number) => Array.from({ length: n }, (_, i) => ({ type: 'purchase', productId, sessionId: `seed-${productId}-${i}` }));
  await postEvents(t, [...purchases('1', 5), ...purchases('2', 4), ...purchases('3', 3)]);
}

export interface Shop {
  current?: TestService;
}

/**
 * Pages: /trending (a widget at the top), /below-fold (the widget under a tall block),
 * /as/<customerId>/<customerToken> (/trending for a signed-in customer), /filtered (a page-wide filter on the script tag, one
 * carousel with its own filter and one with diversity), /products/<handle> (no widget), /img/<id>.svg.
 */
export function storefrontFor(shop: Shop): Promise<Storefront> {
  const page = (body: string, attributes = '') => {
    const t = shop.current!;
    return {
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fixture shop</title><link rel="icon" href="data:,">
<script src="${t.url}/widget.js" data-key="${t.shop.publicKey}"${attributes} async></script></head><body>${body}</body></html>`,
    };
  };
  return startStorefront((pathname) => {
    if (pathname === '/trending') return page('<div data-pairwise="trending" data-limit="6" data-widget-id="top-trending"></div>');
    const as = /^\/as\/([^/]+)\/([^/]+)$/.exec(pathname);
    if (as) return page('<div data-pairwise="trending" data-limit="6" data-widget-id="top-trending"></div>', ` data-customer-id="${as[1]}" data-customer-token="${as[2]}"`);
    if (pathname === '/filtered') {
      return page(
        '<div id="acme" data-pairwise="trending" data-limit="6" data-widget-id="acme" data-filters="vendor:Acme"></div>' +
          '<div id="mixed" data-pairwise="trending" data-limit="6" data-widget-id="mixed" data-diversity="vendor:1"></div>',
        ' data-filters="price &lt; 20"',
      );
    }
    if (pathname === '/below-fold') return page('<div style="height:1800px">Scroll down</div><div data-pairwise="trending" data-limit="6" data-widget-id="below-trending"></div>');
    const image = /^\/img\/(\d+)\.svg$/.exec(pathname);
    if (image) return { type: 'image/svg+xml', body: svg(image[1]!) };
    if (pathname.startsWith('/products/')) return { body: `<!doctype html><title>${pathname}</title><h1>${pathname}</h1>` };
    return undefined;
  });
}
