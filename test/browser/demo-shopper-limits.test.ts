// A real shopper never meets a rate limit: the demo storefront in a real browser, browsed briskly
// (a page every two seconds, scrolled to the bottom so every carousel's cards are seen, a card
// clicked, a product added to the cart) against a service whose default limits apply to loopback
// too, each at one server process's share of a two-process server (the default on two cores).
// Every event the widget sends costs a token; nothing may be refused.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { launchBrowser, recordSocketEvents } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';

/** The default rates of one server process of two, as PAIRWISE_* variables. */
function twoServerShare(): Record<string, string> {
  const { rateLimits } = loadConfig({ PAIRWISE_SERVERS: '2' });
  const env: Record<string, string> = {};
  for (const [name, rate] of [
    ['ADDRESS', rateLimits.address],
    ['PUBLIC_KEY', rateLimits.publicKey],
    ['WS_OPS', rateLimits.socket],
  ] as const) {
    env[`PAIRWISE_RATE_${name}_PER_SECOND`] = String(rate.perSecond);
    env[`PAIRWISE_RATE_${name}_BURST`] = String(rate.burst);
  }
  return env;
}

describe('a shopper on the demo storefront, with the default limits applied to them', () => {
  let t: TestService;
  let browser: Browser;

  beforeAll(async () => {
    const env = { PAIRWISE_DEMO: '1', PAIRWISE_EASE_REFIT_MINUTES: '0', PAIRWISE_EASE_REFIT_EVENTS: '0', PAIRWISE_RATE_LIMIT_EXEMPT: '', ...twoServerShare() };
    [t, browser] = await Promise.all([startTestService({ env }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.cleanup();
  });

  /** Scrolls to the bottom and back in steps, as a reader would, so every card is seen for its dwell. */
  async function browse(page: Page): Promise<void> {
    for (let y = 0; y <= 3000; y += 600) {
      await page.evaluate((top) => scrollTo(0, top), y);
      await page.waitForTimeout(300);
    }
    await page.waitForTimeout(600);
  }

  test('When they browse a page every two seconds, add to the cart and click a card, then nothing they send is refused', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const events = recordSocketEvents(page);
    const refusals: string[] = [];
    page.on('response', (res) => {
      if (res.status() === 429) refusals.push(`${res.status()} ${res.url()}`);
    });
    page.on('websocket', (socket) =>
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && /"code":"(rate_limited|too_many_new_sessions|storefront_quota)"/.test(payload)) refusals.push(payload);
      }),
    );

    await page.goto(`${t.url}/demo`);
    await browse(page);
    await page.goto(`${t.url}/demo/collections/christmas`);
    await browse(page);
    const products = await page.locator('.grid li a').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    for (const href of products.slice(0, 4)) {
      await page.goto(href);
      await browse(page);
      await page.click('.buy button');
    }
    await page.locator('[data-widget-id="product-similar"] .pw-card a').first().click();
    await browse(page);
    await expect.poll(() => page.evaluate(() => JSON.parse(sessionStorage.getItem('pairwise.outbox') ?? '[]').length)).toBe(0);
    await context.close();

    console.log(`events sent: ${events.length} (${events.filter((e) => e.type === 'impression').length} impressions)`);
    expect(refusals).toEqual([]);
    expect(Object.values(t.service.limits.stats().refused).reduce((sum, count) => sum + count, 0)).toBe(0);
    // It did send: views, impressions of the cards it scrolled past, add-to-carts, a click.
    expect(events.filter((e) => e.type === 'impression').length).toBeGreaterThan(40);
    expect(events.filter((e) => e.type === 'add_to_cart')).toHaveLength(4);
  });
});
