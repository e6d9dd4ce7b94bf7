// The dashboard's rules section on the demo store, in a real browser: preview a draft rule on a
// query (before and after, nothing stored), a malformed filter's position and expected token, save
// it, disable it, delete it; the API and its answers follow each step. With PAIRWISE_UPDATE_DOCS=1
// the screenshot also replaces docs/dashboard-rules.png.
import { copyFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser, screenshot, signInToDashboard } from '../support/browser.js';
import { ids, recommendations, startTestService, type TestService } from '../support/service.js';

describe('dashboard rules', () => {
  let t: TestService;
  let browser: Browser;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestService({ env: { PAIRWISE_DEMO: '1' } }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.cleanup();
  });

  const signIn = (page: Page) => signInToDashboard(page, t);

  test('When the merchant previews, saves, disables and deletes a rule in the page, then the preview shows its effect and the API follows each step', async () => {
    const secret = t.service.demoKeys!.secretKey;
    const pub = t.service.demoKeys!.publicKey;
    const before = ids(await recommendations(t, 'strategy=trending&limit=8', pub));
    const products = (await (await t.fetch('/api/products?limit=100', { key: secret })).json()) as { products: { id: string; available: boolean }[] };
    const pinned = products.products.map((p) => p.id.replace(/^gid:\/\/[^/]+\/Product\//, '')).find((id, i) => products.products[i]!.available && !before.includes(id))!;

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await signIn(page);
      await expect.poll(() => page.locator('#rules').textContent()).toContain('No rules yet');

      // A malformed filter: the page names the field, the position and the expected token.
      await page.fill('#rule-id', 'campaign');
      await page.fill('#rule-json', JSON.stringify({ then: { hide: 'tag:clearance AND (vendor:x' } }));
      await page.click('#rule-preview');
      // Said once, beside the editor (not at the top of the section, not repeated).
      const problem = "/then/hide: expected ')' at position 27, found the end of the filter";
      await expect.poll(() => page.locator('#rule-editor-status').textContent()).toBe(problem);
      expect(await page.locator('#rule-status').textContent()).toBe('');
      expect((await page.locator('main').innerText()).split("expected ')'").length - 1).toBe(1);
      const [editor, status] = await Promise.all([page.locator('#rule-editor').boundingBox(), page.locator('#rule-editor-status').boundingBox()]);
      expect(status!.y).toBeGreaterThan(editor!.y);
      expect(status!.y + status!.height).toBeLessThanOrEqual(editor!.y + editor!.height);

      // Preview: before is today's answer, after has the pin first; nothing is stored.
      await page.fill('#rule-json', JSON.stringify({ then: { pin: [{ productId: pinned, position: 1 }] } }, null, 2));
      await page.fill('#rule-query', 'strategy=trending&limit=8');
      await page.click('#rule-preview');
      await expect.poll(() => page.locator('[data-preview="after"] li').count()).toBe(8);
      expect(await page.locator('[data-preview="before"] li').evaluateAll((items) => items.map((li) => li.getAttribute('data-product')))).toEqual(before);
      const after = page.locator('[data-preview="after"] li');
      expect(await after.first().getAttribute('data-product')).toBe(pinned);
      expect(await after.first().textContent()).toContain('pinned by campaign');
      expect(await after.first().getAttribute('class')).toBe('changed');
      expect(await (await t.fetch('/api/rules', { key: secret })).json()).toEqual({ rules: [] });

      // Save: listed, stored, and the next answer has the pin.
      await page.click('#rule-save');
      await expect.poll(() => page.locator('#rules tr[data-rule="campaign"]').count()).toBe(1);
      expect(await (await t.fetch('/api/rules/campaign', { key: secret })).json()).toMatchObject({ id: 'campaign', enabled: true });
      expect(ids(await recommendations(t, 'strategy=trending&limit=8', pub))[0]).toBe(pinned);
      expect(errors).toEqual([]);

      // A shopper clicks the pin (its events name the rule, as the widget's do): the per-strategy table shows it apart.
      const recId = ((await (await t.fetch('/api/recommendations?strategy=trending&limit=8', { key: pub })).json()) as { meta: { recId: string } }).meta.recId;
      const events = ['impression', 'click'].map((type) => ({ type, productId: pinned, sessionId: 'pin-clicker', widgetId: 'home-trending', recId, metadata: { ruleId: 'campaign' } }));
      expect((await t.fetch('/api/events/batch', { method: 'POST', key: pub, body: JSON.stringify({ events }) })).status).toBe(200);
      await page.reload();
      await page.waitForSelector('body[data-loaded]');
      const trending = page.locator('#by-strategy tbody tr', { has: page.locator('th', { hasText: /^trending$/ }) });
      expect(await trending.locator('[data-pinned="clicks"]').textContent()).toBe('1');
      expect(await page.locator('#by-strategy thead').textContent()).toContain('Pinned clicks');
      const file = await screenshot(page, 'dashboard-rules.png', true);
      if (process.env.PAIRWISE_UPDATE_DOCS === '1') copyFileSync(file, 'docs/dashboard-rules.png');

      // Disable: stored disabled, the answer is today's again.
      await page.locator('input[data-toggle="campaign"]').uncheck();
      await expect.poll(async () => ((await (await t.fetch('/api/rules/campaign', { key: secret })).json()) as { enabled: boolean }).enabled).toBe(false);
      expect(ids(await recommendations(t, 'strategy=trending&limit=8', pub))).toEqual(before);

      // Delete.
      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('button[data-delete="campaign"]');
      await expect.poll(() => page.locator('#rules').textContent()).toContain('No rules yet');
      expect((await t.fetch('/api/rules/campaign', { key: secret })).status).toBe(404);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
