// The widget on a merchant's page (another origin than the service): the carousel shows the API's
// list as accessible, keyboard-navigable cards, and counts impressions only when cards are seen.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { cardIds, eventsApplied, launchBrowser, screenshot, sessionIdOf, type Storefront } from '../support/browser.js';
import { ids, recommendations, startTestService } from '../support/service.js';
import { seedShop, storefrontFor, type Shop } from './fixtures.js';
import { storedEvents } from '../support/stored-events.js';

describe('storefront widget: carousel and impressions', () => {
  let browser: Browser;
  let storefront: Storefront;
  const shop: Shop = {};
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    storefront = await storefrontFor(shop);
  });
  afterAll(async () => {
    await browser?.close();
    await storefront?.close();
  });
  beforeEach(async () => {
    shop.current = await startTestService();
    await seedShop(shop.current, storefront);
    context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    await shop.current?.cleanup();
  });

  test('When a page has a trending widget, then it renders the API’s products as an accessible carousel of cards', async () => {
    const t = shop.current!;
    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);

    const api = await recommendations(t, `strategy=trending&limit=6&sessionId=${await sessionIdOf(page)}`);
    expect(await cardIds(page)).toEqual(ids(api));
    expect(ids(api)).toEqual(['1', '2', '3', '4', '5', '6']);
    const first = page.locator('.pw-card').first();
    expect(await first.locator('img').getAttribute('alt')).toBe('Product 1');
    expect(await first.locator('img').getAttribute('src')).toBe(`${storefront.url}/img/1.svg`);
    expect(await first.locator('a').getAttribute('href')).toBe('/products/product-1');
    expect(await first.locator('.pw-vendor').textContent()).toBe('Acme');
    expect(await first.locator('.pw-now').textContent()).toBe('Sale price 10.00');
    expect(await first.locator('.pw-was').textContent()).toBe('Regular price 15.00');
    const section = page.locator('section.pw-carousel');
    expect(await section.getAttribute('aria-roledescription')).toBe('carousel');
    expect(await page.locator(`#${await section.getAttribute('aria-labelledby')}`).textContent()).toBe('Trending now');
    expect(await first.getAttribute('aria-label')).toBe('1 of 6');
    // Images load (served by the storefront) and have a size.
    await expect.poll(() => first.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(400);

    // Keyboard: arrows move between cards, End to the last one, the same control stays focused.
    await first.locator('a').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement?.closest('.pw-card')?.getAttribute('data-product-id'))).toBe('2');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.closest('.pw-card')?.getAttribute('data-product-id'))).toBe('6');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('pw-add');
    await page.keyboard.press('ArrowLeft');
    expect(await page.evaluate(() => [document.activeElement?.className, document.activeElement?.closest('.pw-card')?.getAttribute('data-product-id')])).toEqual(['pw-add', '5']);
    await screenshot(page, 'widget-carousel.png');
  });

  test('When the script tag and a carousel carry filters and another carousel diversity, then each shows the API’s answer to them', async () => {
    const t = shop.current!;
    await page.goto(`${storefront.url}/filtered`);
    // Acme is every odd id, priced 10 + (id − 1): below 20 means ids 1–10. Trending: 1 > 2 > 3, then by id.
    await expect.poll(() => page.locator('#acme .pw-card').count()).toBe(5);
    await expect.poll(() => page.locator('#mixed .pw-card').count()).toBe(2);
    const cards = (id: string) => page.locator(`#${id} .pw-card`).evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-product-id')));
    expect(await cards('acme')).toEqual(['1', '3', '5', '7', '9']);
    expect(await cards('mixed')).toEqual(['1', '2']);
    const session = await sessionIdOf(page);
    const api = await recommendations(t, `strategy=trending&limit=6&sessionId=${session}&filters=${encodeURIComponent('(price < 20) AND (vendor:Acme)')}`);
    expect(ids(api)).toEqual(await cards('acme'));
  });

  test('When the widget is scrolled into view, then each visible card sends one impression with widgetId and position', async () => {
    const t = shop.current!;
    const before = await eventsApplied(t);
    await page.goto(`${storefront.url}/below-fold`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    // Below the fold: rendered but not seen (an impression needs 0.5 s in view; wait past that once).
    await page.waitForTimeout(800);
    expect(await eventsApplied(t)).toBe(before);

    await page.locator('section.pw-carousel').scrollIntoViewIfNeeded();
    await expect.poll(() => eventsApplied(t)).toBe(before + 6);
    // As stored, whichever way they went (the socket, or HTTP when it was slow to open on a busy machine).
    const impressions = storedEvents(t.service.dbs, t.shop.shopId).map((e) => e.event).filter((e) => e.type === 'impression');
    expect(impressions.map((e) => e.productId).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    for (const event of impressions) {
      expect(event).toMatchObject({ widgetId: 'below-trending', sessionId: await sessionIdOf(page), messageId: expect.any(String) });
      expect(event.metadata?.position).toBe(Number(event.productId));
    }

    // Once per card per page view: out of view and back sends nothing more.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('section.pw-carousel').scrollIntoViewIfNeeded();
    await page.waitForTimeout(800);
    expect(await eventsApplied(t)).toBe(before + 6);
  });
});
