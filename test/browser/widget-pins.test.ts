// The widget and the shop's rules: a card a rule pinned is shown where the rule puts it, and every
// event the widget sends about it (impressions, clicks) names the rule in metadata.ruleId, so the
// statistics count it as a pin's; an organic card's events do not.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { cardIds, eventsApplied, launchBrowser, type Storefront } from '../support/browser.js';
import { startTestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';
import { seedShop, storefrontFor, type Shop } from './fixtures.js';

describe('storefront widget: pinned cards', () => {
  let browser: Browser;
  let storefront: Storefront;
  const shop: Shop = {};

  beforeAll(async () => {
    browser = await launchBrowser();
    storefront = await storefrontFor(shop);
    shop.current = await startTestService();
    await seedShop(shop.current, storefront);
  });
  afterAll(async () => {
    await browser?.close();
    await storefront?.close();
    await shop.current?.cleanup();
  });

  test('When a rule pins a product, then its card comes first and its impression and click carry the ruleId', async () => {
    const t = shop.current!;
    const put = await t.fetch('/api/rules/spotlight', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ then: { pin: [{ productId: '9', position: 1 }] } }) });
    expect(put.status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1400, height: 800 } });
    try {
      const page = await context.newPage();
      const before = await eventsApplied(t);
      await page.goto(`${storefront.url}/trending`);
      await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
      expect((await cardIds(page))[0]).toBe('9');
      await expect.poll(() => eventsApplied(t)).toBe(before + 6); // one impression per card in view
      await page.locator('.pw-card').first().locator('a').click({ modifiers: ['Control'] });
      await expect.poll(() => eventsApplied(t)).toBe(before + 7);

      const events = storedEvents(t.service.dbs, t.shop.shopId).map((e) => e.event).filter((e) => e.type === 'impression' || e.type === 'click');
      for (const event of events) {
        if (event.productId === '9') expect(event.metadata).toMatchObject({ ruleId: 'spotlight', position: 1 });
        else expect(event.metadata?.ruleId).toBeUndefined();
      }
      expect(events.filter((e) => e.productId === '9').map((e) => e.type).sort()).toEqual(['click', 'impression']);
    } finally {
      await context.close();
    }
  });
});
