// The demo storefront (/demo) on the demo store, in a real browser: every carousel shows what the
// API answers with the demo public key; a product page records a view; the sample-shopper switch
// shows personalized recommendations. Screenshots go to test/artifacts/.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { cardIds, launchBrowser, recordSocketEvents, screenshot, sessionIdOf } from '../support/browser.js';
import { ids, recommendations, startTestService, type TestService } from '../support/service.js';

const widget = (id: string) => `[data-widget-id="${id}"]`;

describe('demo storefront', () => {
  let t: TestService;
  let pk: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // Seeds the demo store (400 products, ~87k events): once for the file. No EASE refit: the
    // seeded events make one due ~10 s after the start, and one installed between a widget's request
    // and the test's own changes the personalized answer the test compares the widget's cards with.
    const noRefits = { PAIRWISE_EASE_REFIT_MINUTES: '0', PAIRWISE_EASE_REFIT_EVENTS: '0' };
    [t, browser] = await Promise.all([startTestService({ env: { PAIRWISE_DEMO: '1', ...noRefits } }), launchBrowser()]);
    pk = t.service.demoKeys!.publicKey;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.cleanup();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });

  const api = (query: string) => recommendations(t, query, pk);

  test('When a shopper opens the home page, then the trending carousel shows the API’s trending list', async () => {
    await page.goto(`${t.url}/demo`);
    await expect.poll(() => page.locator(`${widget('home-trending')} .pw-card`).count()).toBe(12);
    const sessionId = await sessionIdOf(page);
    expect(await cardIds(page, widget('home-trending'))).toEqual(ids(await api(`strategy=trending&limit=12&sessionId=${sessionId}`)));
    // Nothing viewed yet: "Recently viewed" stays hidden rather than showing backfill.
    expect(await page.locator(`${widget('home-recently-viewed')} section`).isHidden()).toBe(true);
    expect(await page.locator('.tiles li').count()).toBe(12);
    await screenshot(page, 'demo-home.png');
  });

  test('When a shopper opens a collection, then it shows the collection’s popular products and all its products', async () => {
    await page.goto(`${t.url}/demo/collections/christmas`);
    await expect.poll(() => page.locator(`${widget('collection-popular')} .pw-card`).count()).toBe(12);
    const sessionId = await sessionIdOf(page);
    expect(await cardIds(page, widget('collection-popular'))).toEqual(ids(await api(`strategy=collection-popular&collectionId=501&limit=12&sessionId=${sessionId}`)));
    expect(await page.locator('h1').textContent()).toBe('Christmas');
    expect(await page.locator('.grid li').count()).toBeGreaterThan(12);
    await screenshot(page, 'demo-collection.png');
  });

  test('When a collection page is laid out, then each grid image box is as tall as it is wide (not the 400 px of its height attribute)', async () => {
    await page.goto(`${t.url}/demo/collections/christmas`);
    const boxes = await page.locator('.grid img').evaluateAll((images) => images.map((image) => image.getBoundingClientRect()).map((r) => [r.width, r.height]));
    expect(boxes.length).toBeGreaterThan(12);
    for (const [width, height] of boxes) {
      expect(width).toBeLessThan(400);
      expect(Math.abs(height! - width!)).toBeLessThan(1);
    }
  });

  test('When the window is narrow, then the collections scroll sideways inside their row and the page itself never does; when wide, every collection is in view', async () => {
    const narrow = await browser.newContext({ viewport: { width: 375, height: 800 } });
    try {
      const phone = await narrow.newPage();
      await phone.goto(`${t.url}/demo`);
      const before = await phone.evaluate(() => {
        const nav = document.querySelector('nav.collections')!;
        return { page: document.documentElement.scrollWidth, window: innerWidth, overflow: getComputedStyle(nav).overflowX, scroll: nav.scrollWidth, client: nav.clientWidth };
      });
      expect(before.page).toBeLessThanOrEqual(before.window);
      expect(before.overflow).toBe('auto');
      expect(before.scroll).toBeGreaterThan(before.client);
      // The last collection can be scrolled into view, and ends inside the window.
      const last = phone.locator('nav.collections a').last();
      await last.scrollIntoViewIfNeeded();
      const box = (await last.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      expect(await phone.evaluate(() => document.querySelector('nav.collections')!.scrollLeft)).toBeGreaterThan(0);
      await screenshot(phone, 'demo-narrow.png');
    } finally {
      await narrow.close();
    }

    await page.goto(`${t.url}/demo`);
    const rights = await page.locator('nav.collections a').evaluateAll((links) => links.map((link) => link.getBoundingClientRect().right));
    expect(rights).toHaveLength(12);
    for (const right of rights) expect(right).toBeLessThanOrEqual(1280);
  });

  test.each([
    ['an unknown product', '/demo/products/no-such-product'],
    ['an unknown collection', '/demo/collections/no-such-collection'],
    ['an unknown page', '/demo/no/such/page'],
  ])('When a shopper opens %s, then a 404 page in the shop’s look offers a way back, with trending products', async (_what, path) => {
    const response = await page.goto(`${t.url}${path}`);
    expect(response!.status()).toBe(404);
    expect(response!.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await page.locator('h1').textContent()).toBe('We couldn’t find that page');
    expect(await page.locator('nav.collections a').count()).toBe(12);
    expect(await page.locator('main a[href="/demo"]').count()).toBe(1);
    await expect.poll(() => page.locator(`${widget('not-found-trending')} .pw-card`).count()).toBe(8);
    if (path.includes('products')) await screenshot(page, 'demo-not-found.png');
  });

  test('When a browser opens the service’s root with the demo on, then it is sent to the demo storefront', async () => {
    const res = await t.fetch('/', { key: null, redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/demo');
    await page.goto(t.url);
    expect(new URL(page.url()).pathname).toBe('/demo');
  });

  test('When a shopper views two products, then the views reach the API and the second page shows the first as recently viewed', async () => {
    const sent = recordSocketEvents(page);
    await page.goto(`${t.url}/demo/products/regency-cakestand-3-tier`);
    await expect.poll(() => page.locator(`${widget('product-bought-together')} .pw-card`).count()).toBe(8);
    const sessionId = await sessionIdOf(page);
    expect(await cardIds(page, widget('product-bought-together'))).toEqual(
      ids(await api(`strategy=bought-together&productId=1002&limit=8&sessionId=${sessionId}`)),
    );
    expect(await page.locator(`${widget('product-similar')} .pw-card`).count()).toBe(8);
    await expect.poll(async () => ids(await api(`strategy=recently-viewed&sessionId=${sessionId}&limit=1`))).toEqual(['1002']);

    // The theme's own add-to-cart button reports through the hook (data-pairwise-add-to-cart).
    await page.click('.buy button');
    await expect.poll(() => page.locator('#cart-count').textContent()).toBe('1');
    await expect.poll(() => sent.find((e) => e.type === 'add_to_cart')).toBeDefined();
    const addToCart = sent.find((e) => e.type === 'add_to_cart')!;
    expect(addToCart.productId).toBe('1002');
    await expect.poll(() => page.evaluate(() => window.Pairwise!.pending)).toBe(0);
    // The service has it: the same messageId again is a duplicate.
    const again = await t.fetch('/api/events', { method: 'POST', key: pk, body: JSON.stringify(addToCart) });
    expect(await again.json()).toMatchObject({ success: true, duplicate: true });

    // A card click goes to the demo product page (data-link-base), which lists the first product as recently viewed.
    const next = page.locator(`${widget('product-bought-together')} .pw-card`).first();
    const nextId = await next.getAttribute('data-product-id');
    await next.locator('a').click();
    await page.waitForURL(/\/demo\/products\//);
    await expect.poll(() => cardIds(page, widget('product-recently-viewed'))).toEqual(['1002']);
    await expect.poll(async () => ids(await api(`strategy=recently-viewed&sessionId=${sessionId}&limit=2`))).toEqual([nextId, '1002']);
    await page.locator(`${widget('product-recently-viewed')}`).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'demo-product-page.png', true);
  });

  test('When a shopper signs in as a sample shopper, then the home page shows their personalized recommendations', async () => {
    await page.goto(`${t.url}/demo`);
    const shopper = await page.locator('#shopper option').nth(1).getAttribute('value');
    await page.selectOption('#shopper', shopper!);
    await page.waitForSelector(`${widget('home-personalized')} .pw-card`);
    await expect.poll(() => page.locator(`${widget('home-personalized')} .pw-card`).count()).toBe(8);
    const sessionId = await sessionIdOf(page);
    // The page carries the shopper's customer token, as a merchant's theme renders it: with the
    // public key, a customerId counts only with one (the same query without it is session-only).
    const token = await page.locator('script[data-customer-token]').getAttribute('data-customer-token');
    expect(token).toMatch(/^ct1\./);
    expect((await api(`strategy=personalized&customerId=${shopper}&sessionId=${sessionId}&limit=8`)).meta.modelLevel).toBe(1);
    const personalized = await api(`strategy=personalized&customerId=${shopper}&customerToken=${token}&sessionId=${sessionId}&limit=8`);
    expect(personalized.meta.modelLevel).toBe(3);
    expect(await cardIds(page, widget('home-personalized'))).toEqual(ids(personalized));
    expect(await page.locator(`${widget('home-personalized')} .pw-title`).textContent()).toBe(`Picked for you, ${shopper}`);
    await screenshot(page, 'demo-signed-in.png');

    // Signing out again.
    const reloaded = page.waitForEvent('load');
    await page.selectOption('#shopper', '');
    await reloaded;
    expect(await page.locator(widget('home-personalized')).count()).toBe(0);
    expect(await page.locator('#shopper').inputValue()).toBe('');
  });

  test.each(['%E0%A4%A', '%', '%ZZ'])('When the shopper cookie is not percent-encoding (%s), then the page is the signed-out one, not a 500', async (value) => {
    const signedOut = await (await t.fetch('/demo', { key: null })).text();

    const res = await t.fetch('/demo', { key: null, headers: { cookie: `pairwise_demo_shopper=${value}` } });

    expect(res.status).toBe(200);
    expect(await res.text()).toBe(signedOut);
  });
});
