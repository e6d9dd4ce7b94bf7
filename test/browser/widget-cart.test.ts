// A cart placement (data-context="cart"): on a Shopify storefront the widget reads the cart from a
// stand-in of Shopify's cart API (/cart.js) and follows the theme's changes to it (/cart/add.js,
// /cart/change.js through fetch); elsewhere it follows the element's data-product-ids.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { startCartStandIn } from '../support/shopify-cart-stand-in.js';
import { postEvents, recommendations, startTestService, ids, type TestService } from '../support/service.js';
import { seedShop } from './fixtures.js';

/** Orders pairing 1 with 5, 2 with 6 and 7, and 3 with 8: a cart's answer depends on what it holds. */
async function seedOrders(t: TestService): Promise<void> {
  const order = (id: string, products: string[]) => products.map((productId) => ({ type: 'purchase', productId, sessionId: id, metadata: { orderId: id } }));
  const events = [];
  for (let i = 0; i < 6; i++) events.push(...order(`a${i}`, ['1', '5']), ...order(`b${i}`, ['2', '6', '7']), ...order(`c${i}`, ['3', '8']));
  await postEvents(t, events);
}

/** A storefront with a cart: Shopify's globals and cart API, or a page that keeps the cart in data-product-ids. */
function cartStorefront(service: () => TestService) {
  const head = (shopify: boolean) => {
    const t = service();
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cart fixture</title><link rel="icon" href="data:,">
${shopify ? `<script>window.Shopify = { shop: 'acme.myshopify.com', routes: { root: '/' } };</script>` : ''}
<script src="${t.url}/widget.js" data-key="${t.shop.publicKey}" data-shopify-cart="false" async></script></head>`;
  };
  const pages: Record<string, () => string> = {
    '/cart': () => `${head(true)}<body><div data-pairwise="bought-together" data-context="cart" data-limit="4" data-widget-id="cart-drawer"></div></body></html>`,
    '/plain-cart': () => `${head(false)}<body><div id="drawer" data-pairwise="auto" data-context="cart" data-product-ids="1" data-limit="4"></div></body></html>`,
  };
  return startCartStandIn((pathname) => pages[pathname]?.());
}

const shown = (page: Page) => page.$$eval('.pw-card', (cards) => cards.map((c) => c.getAttribute('data-product-id')));

describe('storefront widget: a cart placement', () => {
  let browser: Browser;
  let service: TestService;
  let storefront: Awaited<ReturnType<typeof cartStorefront>>;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    storefront = await cartStorefront(() => service);
  });
  afterAll(async () => {
    await browser?.close();
    await storefront?.close();
  });
  beforeEach(async () => {
    service = await startTestService();
    await seedShop(service, storefront);
    await seedOrders(service);
    storefront.reads.length = 0;
    context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    await service?.cleanup();
  });

  test('When a Shopify cart holds products, then the carousel shows the cart answer, and follows the theme adding and removing products through the cart API', async () => {
    storefront.setCart([1, 3]);
    await page.goto(`${storefront.url}/cart`);
    const answer = async (cart: string) => ids(await recommendations(service, `strategy=bought-together&productIds=${cart}&limit=4`));
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(await answer('1,3'));
    expect(await shown(page)).not.toContain('1');
    expect(await shown(page)).not.toContain('3');

    // The theme adds 2 to the cart with Shopify's cart API, as themes do.
    await page.evaluate(() => fetch('/cart/add.js', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product: 2, quantity: 1 }) }));
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(await answer('1,2,3'));
    expect(await shown(page)).not.toContain('2');

    // Emptied: nothing to go with, the carousel hides.
    await page.evaluate(async () => {
      for (const product of [1, 2, 3]) await fetch('/cart/change.js', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ product, quantity: 0 }) });
    });
    await expect.poll(() => page.$eval('.pw-carousel', (s) => (s as HTMLElement).hidden), { timeout: 10_000 }).toBe(true);
    expect(storefront.reads).toContain('');
  });

  test('When the cart changes without fetch, then Pairwise.cartChanged() makes the carousel read it again', async () => {
    storefront.setCart([3]);
    await page.goto(`${storefront.url}/cart`);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ids(await recommendations(service, 'strategy=bought-together&productId=3&limit=4')));
    storefront.setCart([3, 1]);
    await page.evaluate(() => window.Pairwise!.cartChanged());
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ids(await recommendations(service, 'strategy=bought-together&productIds=1,3&limit=4')));
  });

  test('When a page outside Shopify rewrites data-product-ids, then the carousel follows the cart it names', async () => {
    await page.goto(`${storefront.url}/plain-cart`);
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ids(await recommendations(service, 'productId=1&limit=4')));
    await page.evaluate(() => document.getElementById('drawer')!.setAttribute('data-product-ids', '1, 2'));
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(ids(await recommendations(service, 'productIds=1,2&limit=4')));
    expect(storefront.reads).toEqual([]);
  });
});
