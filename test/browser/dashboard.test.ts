// The merchant's dashboard on the demo store, in a real browser: sign in with the secret key, see
// the charts and tables drawn from the seeded traffic, switch the range, create, start and stop an
// experiment through the page's forms, and read it on a phone. Screenshots go to test/artifacts/;
// with PAIRWISE_UPDATE_DOCS=1 the laptop one also replaces docs/dashboard.png.
import { copyFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { launchBrowser, screenshot, signInToDashboard } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';

describe('dashboard', () => {
  let t: TestService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // Seeds the demo store with its experiment and weeks of recommendation traffic: once for the file.
    [t, browser] = await Promise.all([startTestService({ env: { PAIRWISE_DEMO: '1' } }), launchBrowser()]);
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

  const signIn = (page: Page) => signInToDashboard(page, t);

  test('When the merchant signs in, then the charts, tables, top products and the running experiment show the demo store’s numbers', async () => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
    });
    const notFound: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    await signIn(page);
    expect(await page.locator('h1').textContent()).toBe('Overview');
    // The key is nowhere in the page, and the cookie is out of script's reach.
    expect(await page.content()).not.toContain(t.service.demoKeys!.secretKey);
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // Both charts are drawn by uPlot on canvases with the range's days.
    for (const chart of ['#chart-revenue', '#chart-rates']) {
      await expect.poll(() => page.locator(`${chart} .uplot canvas`).count()).toBe(1);
      const box = (await page.locator(`${chart} canvas`).boundingBox())!;
      expect(box.width).toBeGreaterThan(300);
      expect(box.height).toBeGreaterThan(100);
    }
    // Money in the shop's currency (the demo's prices are in pounds).
    const revenue = await page.locator('[data-kpi="revenue"] strong').textContent();
    expect(revenue).toMatch(/^£[\d,]+\.\d\d$/);
    expect(Number(revenue!.replace(/[£,]/g, ''))).toBeGreaterThan(100);
    expect(await page.locator('#top-products tbody tr td').last().textContent()).toMatch(/^£/);
    expect(await page.locator('[data-kpi="ctr"] strong').textContent()).toMatch(/^\d+\.\d\d %$/);
    expect(await page.locator('#by-strategy tbody tr').count()).toBe(6);
    expect(await page.locator('#by-widget tbody th').allTextContents()).toEqual(
      expect.arrayContaining(['home-trending', 'product-bought-together', 'product-similar', 'collection-popular']),
    );
    expect(await page.locator('#top-products tbody tr').count()).toBe(15);
    expect(await page.locator('#top-products tbody tr .title').first().textContent()).not.toBe('');
    // Each heading once: the table's caption says what it ranks by, not the section's name again.
    expect((await page.locator('main').innerText()).split('Top recommended products').length - 1).toBe(1);

    // The seeded experiment runs, with both variants' intervals and a verdict.
    const experiment = page.locator('article.experiment[data-status="running"]');
    await expect.poll(() => experiment.count()).toBe(1);
    expect(await experiment.locator('code').textContent()).toBe('product-similar');
    expect(await experiment.locator('tbody tr').count()).toBe(2);
    expect(await experiment.locator('.verdict').textContent()).toMatch(/^(B ahead|A ahead|no difference yet)$/);

    // The page's numbers are the API's.
    const api = (await (await t.fetch('/api/stats?groupBy=day', { key: t.service.demoKeys!.secretKey })).json()) as { totals: { orders: number } };
    expect(await page.locator('[data-kpi="revenue"] .kpi-note').textContent()).toBe(`${api.totals.orders.toLocaleString('en')} orders`);

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    expect(errors).toEqual([]);
    expect(notFound).toEqual([]); // the favicon included
    const file = await screenshot(page, 'dashboard.png', true);
    if (process.env.PAIRWISE_UPDATE_DOCS === '1') copyFileSync(file, 'docs/dashboard.png');
  });

  test('When another range is picked, then every number is reloaded for it', async () => {
    await signIn(page);
    const before = await page.locator('[data-kpi="ctr"] .kpi-note').textContent();
    await page.click('#range button[data-days="7"]');
    await page.waitForSelector('body[data-loaded="7"]');
    expect(await page.locator('#range button[data-days="7"]').getAttribute('aria-pressed')).toBe('true');
    const label = (await page.locator('#range-label').textContent())!;
    const [from, to] = label.match(/\d{4}-\d\d-\d\d/g)!;
    expect((Date.parse(to!) - Date.parse(from!)) / 86_400_000).toBe(6);
    expect(await page.locator('[data-kpi="ctr"] .kpi-note').textContent()).not.toBe(before);
  });

  test('When the merchant creates, starts and stops an experiment with the forms, then the API shows it stopped', async () => {
    await signIn(page);
    await page.fill('#experiment-name', 'Trending vs personalized');
    await page.fill('#experiment-widget', 'home-trending');
    await page.selectOption('#variants .variant:nth-child(2) select', 'personalized');
    await page.click('#new-experiment button[type="submit"]');
    await expect.poll(() => page.locator('#experiment-status').textContent()).toMatch(/^Created exp_\d+/);
    const id = /exp_\d+/.exec((await page.locator('#experiment-status').textContent())!)![0];
    const card = page.locator(`article[data-experiment="${id}"]`);
    expect(await card.getAttribute('data-status')).toBe('draft');

    await card.locator('button[data-action="start"]').click();
    await expect.poll(() => page.locator(`article[data-experiment="${id}"]`).getAttribute('data-status')).toBe('running');
    await page.locator(`article[data-experiment="${id}"] button[data-action="stop"]`).click();
    await expect.poll(() => page.locator(`article[data-experiment="${id}"]`).getAttribute('data-status')).toBe('stopped');

    const res = await t.fetch(`/api/experiments/${id}`, { key: t.service.demoKeys!.secretKey });
    expect(await res.json()).toMatchObject({ id, name: 'Trending vs personalized', widgetId: 'home-trending', status: 'stopped', variants: [{ strategy: 'trending' }, { strategy: 'personalized' }] });
  });

  test('When the form names a placement that already runs an experiment, then the start is refused and the page says why', async () => {
    await signIn(page);
    await page.fill('#experiment-widget', 'product-similar');
    await page.click('#new-experiment button[type="submit"]');
    await expect.poll(() => page.locator('#experiment-status').textContent()).toMatch(/^Created exp_\d+/);
    const id = /exp_\d+/.exec((await page.locator('#experiment-status').textContent())!)![0];
    await page.locator(`article[data-experiment="${id}"] button[data-action="start"]`).click();
    await expect.poll(() => page.locator('#experiment-status').textContent()).toContain('already running on widget "product-similar"');
    expect(await page.locator(`article[data-experiment="${id}"]`).getAttribute('data-status')).toBe('draft');
  });

  test('When the dashboard is opened on a phone, then it is one column, the page never scrolls sideways and the charts fit', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    try {
      const small = await phone.newPage();
      await signIn(small);
      await expect.poll(() => small.locator('#chart-rates .uplot canvas').count()).toBe(1);
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      for (const chart of ['#chart-revenue', '#chart-rates']) {
        const box = (await small.locator(`${chart} canvas`).boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      const [revenue, rates] = await Promise.all(['#chart-revenue', '#chart-rates'].map((c) => small.locator(c).boundingBox()));
      expect(rates!.y).toBeGreaterThan(revenue!.y + revenue!.height - 1);
      await screenshot(small, 'dashboard-phone.png', true);
    } finally {
      await phone.close();
    }
  });

  // Last: it adds storefront numbers to the demo store the tests above read.
  test('When a storefront reports a purchase under a widget the merchant did not register, then the page says those figures are storefront-reported', async () => {
    const key = t.service.demoKeys!.publicKey;
    const recId = ((await (await t.fetch('/api/recommendations?strategy=trending&limit=1', { key })).json()) as { meta: { recId: string } }).meta.recId;
    const events = [
      { type: 'click', productId: '1002', sessionId: 'storefront-report', widgetId: 'storefront-only', recId },
      { type: 'purchase', productId: '1002', sessionId: 'storefront-report', metadata: { price: 1_000_000, quantity: 3 } },
    ];
    expect((await t.fetch('/api/events/batch', { method: 'POST', key, body: JSON.stringify({ events }) })).status).toBe(200);

    await signIn(page);

    expect(await page.locator('[data-kpi="revenue"] .kpi-note').textContent()).toMatch(/ · £[\d,.]+ storefront-reported$/);
    expect(await page.locator('#by-widget tbody th').allTextContents()).toContain('storefront-only storefront-named');
    expect(await page.locator('#by-widget tbody th').allTextContents()).toContain('home-trending');
  });
});
