// On a Shopify storefront the widget writes the recommendations a shopper took products from into
// the cart's attributes (/cart/update.js), which Shopify copies into the order's note_attributes:
// checked against a stand-in of Shopify's cart API, and read back by the order mapping.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { REC_IDS_ATTRIBUTE } from '../../src/api/cart-attribute.js';
import { orderEvents } from '../../src/integrations/shopify/order-mapping.js';
import type { ShopifyOrder } from '../../src/integrations/shopify/payloads.js';
import { launchBrowser } from '../support/browser.js';
import { startCartStandIn } from '../support/shopify-cart-stand-in.js';
import { REC_ID, startTestService, type TestService } from '../support/service.js';
import { fixture } from '../integrations/shopify/fixtures.js';
import { seedShop } from './fixtures.js';

const card = (id: string) => `.pw-card[data-product-id="${id}"]`;

/** A storefront with Shopify's globals and cart API: every POST to /cart/update.js is recorded. */
function shopifyStorefront(service: () => TestService) {
  const page = (shopify: boolean, root: string) => {
    const t = service();
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shopify fixture</title><link rel="icon" href="data:,">
${shopify ? `<script>window.Shopify = { shop: 'acme.myshopify.com', routes: { root: '${root}' } };</script>` : ''}
<script src="${t.url}/widget.js" data-key="${t.shop.publicKey}" data-link-base="${root}products/" async></script></head>
<body><div data-pairwise="trending" data-limit="6" data-widget-id="cart-drawer"></div></body></html>`;
  };
  return startCartStandIn((pathname) => (pathname === '/' ? page(true, '/') : pathname === '/fr/' ? page(true, '/fr/') : pathname === '/plain' ? page(false, '/') : pathname.includes('/products/') ? `<h1>${pathname}</h1>` : undefined));
}

describe('storefront widget on Shopify: taken recommendations in the cart', () => {
  let browser: Browser;
  let service: TestService;
  let storefront: Awaited<ReturnType<typeof shopifyStorefront>>;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    storefront = await shopifyStorefront(() => service);
  });
  afterAll(async () => {
    await browser?.close();
    await storefront?.close();
  });
  beforeEach(async () => {
    service = await startTestService();
    await seedShop(service, storefront);
    storefront.updates.length = 0;
    context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    await service?.cleanup();
  });

  test('When the shopper adds one card to the cart and clicks another, then the cart keeps both recIds, and the order they end up in attributes its purchases to them', async () => {
    await page.goto(`${storefront.url}/`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    await page.click(`${card('3')} .pw-add`);
    await expect.poll(() => storefront.updates.length).toBe(1);
    const first = storefront.updates[0]!;
    expect(first.path).toBe('/cart/update.js');
    expect(first.contentType).toBe('application/json');
    const afterAdd = JSON.parse(first.body.attributes[REC_IDS_ATTRIBUTE] as string) as Record<string, string[]>;
    expect(Object.keys(afterAdd)).toEqual(['3']);
    expect(afterAdd['3']![0]).toMatch(REC_ID);
    expect(afterAdd['3']![1]).toBe('cart-drawer');

    await page.click(`${card('2')} a`);
    await page.waitForURL(`${storefront.url}/products/product-2`);
    await expect.poll(() => storefront.updates.length).toBe(2);
    const recs = storefront.updates[1]!.body.attributes[REC_IDS_ATTRIBUTE] as string;
    expect(Object.keys(JSON.parse(recs) as object).sort()).toEqual(['2', '3']);

    // The order Shopify makes of that cart carries the attribute as a note attribute.
    const order = fixture<ShopifyOrder>('order');
    order.note_attributes = [{ name: REC_IDS_ATTRIBUTE, value: recs }];
    order.line_items = [
      { id: 1, product_id: 3, quantity: 1, price: '12.00' },
      { id: 2, product_id: 2, quantity: 2, price: '11.00' },
      { id: 3, product_id: 9, quantity: 1, price: '18.00' },
    ];
    const mapped = orderEvents(order);
    expect(mapped.ok && mapped.events.map((e) => [e.productId, e.recId, e.widgetId])).toEqual([
      ['gid://shopify/Product/3', afterAdd['3']![0], 'cart-drawer'],
      ['gid://shopify/Product/2', JSON.parse(recs)['2'][0], 'cart-drawer'],
      ['gid://shopify/Product/9', undefined, undefined],
    ]);
  });

  test('When the store serves another locale under a route root, then the cart is written there', async () => {
    await page.goto(`${storefront.url}/fr/`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    await page.click(`${card('1')} .pw-add`);
    await expect.poll(() => storefront.updates.map((u) => u.path)).toEqual(['/fr/cart/update.js']);
  });

  test('When the page is not a Shopify storefront, then the cart is never written', async () => {
    await page.goto(`${storefront.url}/plain`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    await page.click(`${card('1')} .pw-add`);
    await page.click(`${card('2')} .pw-save`);
    // The add-to-cart reached the service; give a write the time it would have taken.
    await page.waitForTimeout(600);
    expect(storefront.updates).toEqual([]);
  });
});
