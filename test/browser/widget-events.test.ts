// What the shopper does with the cards reaches the service, checked through the API's answers:
// add-to-cart, save, hide (the card never comes back) and click (recently-viewed), over the socket
// and, when it fails, over HTTP and sendBeacon without losing or doubling anything.
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { cardIds, eventsApplied, launchBrowser, recordSocketEvents, sessionIdOf, type Storefront } from '../support/browser.js';
import { customerToken, ids, recommendations, startTestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';
import { seedShop, storefrontFor, type Shop } from './fixtures.js';

const card = (id: string) => `.pw-card[data-product-id="${id}"]`;
const pending = (page: Page) => page.evaluate(() => window.Pairwise?.pending ?? -1);

declare global {
  interface Window {
    Pairwise?: { pending: number; sessionId: string };
    added?: string[];
  }
}

describe('storefront widget: shopper events', () => {
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

  test('When the shopper adds to cart, saves, hides and clicks cards, then each event reaches the service', async () => {
    const t = shop.current!;
    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    const sessionId = await sessionIdOf(page);
    await page.evaluate(() => document.addEventListener('pairwise:add-to-cart', (e) => (window.added ??= []).push((e as CustomEvent).detail.productId)));

    // add_to_cart (weight 4) lifts 6 above the products without signal.
    await page.click(`${card('6')} .pw-add`);
    await expect.poll(async () => ids(await recommendations(t, 'strategy=trending&limit=6'))).toEqual(['1', '2', '3', '6', '4', '5']);
    expect(await page.evaluate(() => window.added)).toEqual(['6']);

    // save (weight 3) lifts 5 next.
    await page.click(`${card('5')} .pw-save`);
    await expect.poll(async () => ids(await recommendations(t, 'strategy=trending&limit=6'))).toEqual(['1', '2', '3', '6', '5', '4']);
    expect(await page.getAttribute(`${card('5')} .pw-save`, 'aria-pressed')).toBe('true');

    // dismiss: the card goes at once; the service hides 4 from this shopper only.
    await page.click(`${card('4')} .pw-hide`);
    expect(await page.locator(card('4')).count()).toBe(0);
    await expect.poll(async () => ids(await recommendations(t, `strategy=trending&limit=6&sessionId=${sessionId}`))).not.toContain('4');
    expect(ids(await recommendations(t, 'strategy=trending&limit=6'))).toContain('4');
    // The live list fills the gap once the pointer leaves the carousel.
    await page.mouse.move(1, 1);
    await expect.poll(() => cardIds(page)).toEqual(['1', '2', '3', '6', '5', '7']);
    await page.reload();
    await expect.poll(() => cardIds(page)).toEqual(['1', '2', '3', '6', '5', '7']);

    // click: the shopper leaves for the product page; the click still arrives (recently-viewed).
    await page.click(`${card('2')} a`);
    await page.waitForURL(`${storefront.url}/products/product-2`);
    await expect.poll(async () => ids(await recommendations(t, `strategy=recently-viewed&sessionId=${sessionId}&limit=3`))[0]).toBe('2');
    expect((await recommendations(t, `strategy=recently-viewed&sessionId=${sessionId}&limit=3`)).products[0]!.strategy).toBe('recently-viewed');
  });

  test('When the socket closes with an event unacknowledged, then events go over HTTP, none lost or counted twice', async () => {
    const t = shop.current!;
    const sockets: WebSocketRoute[] = [];
    let swallowAcks = false;
    let refuse = false;
    await page.routeWebSocket(/\/api\/stream/, (ws) => {
      if (refuse) {
        ws.close({ code: 1011, reason: 'refused by the test' });
        return;
      }
      sockets.push(ws);
      const server = ws.connectToServer();
      ws.onMessage((message) => server.send(message));
      server.onMessage((message) => {
        if (swallowAcks && typeof message === 'string' && JSON.parse(message).op === 'ack') return;
        ws.send(message);
      });
    });
    const overSocket = recordSocketEvents(page);
    const overHttp: Record<string, any>[] = [];
    const batchAnswers: Promise<Record<string, any>>[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/events/batch') && request.method() === 'POST') overHttp.push(...JSON.parse(request.postData()!).events);
    });
    page.on('response', (response) => {
      if (response.url().includes('/api/events/batch') && response.request().method() === 'POST') batchAnswers.push(response.json());
    });
    const before = await eventsApplied(t);

    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    await expect.poll(() => eventsApplied(t)).toBe(before + 6); // the impressions
    await expect.poll(() => pending(page)).toBe(0);

    // The add-to-cart is committed, but its ack never reaches the page.
    swallowAcks = true;
    await page.click(`${card('6')} .pw-add`);
    await expect.poll(() => eventsApplied(t)).toBe(before + 7);
    expect(await pending(page)).toBe(1);

    // The socket drops and cannot come back: the unacknowledged event and a new one go over HTTP.
    refuse = true;
    await sockets.at(-1)!.close({ code: 1006 });
    await page.click(`${card('5')} .pw-save`);
    await expect.poll(() => pending(page)).toBe(0);

    const addToCart = overSocket.find((e) => e.type === 'add_to_cart')!;
    expect(overHttp.find((e) => e.type === 'add_to_cart')?.messageId).toBe(addToCart.messageId);
    expect(overHttp.some((e) => e.type === 'save')).toBe(true);
    expect((await Promise.all(batchAnswers)).reduce((n, a) => n + a.duplicates, 0)).toBe(1);
    // Every distinct event counted exactly once: 6 impressions, the add-to-cart, the save.
    const distinct = new Set([...overSocket, ...overHttp].map((e) => e.messageId));
    expect(distinct.size).toBe(8);
    expect(await eventsApplied(t)).toBe(before + 8);
    expect(ids(await recommendations(t, 'strategy=trending&limit=6'))).toEqual(['1', '2', '3', '6', '5', '4']);
  });

  test('When the shopper navigates away while events wait for HTTP, then sendBeacon delivers them', async () => {
    const t = shop.current!;
    // No socket, and the fetch path fails: only a beacon (?key=…, text/plain) can deliver.
    await page.routeWebSocket(/\/api\/stream/, (ws) => ws.close({ code: 1011 }));
    let failedFetches = 0;
    await page.route(/\/api\/events\/batch/, (route) => {
      failedFetches++;
      return route.abort('connectionfailed');
    });
    // Records each beacon in sessionStorage, which the next page of this tab (same origin) can read.
    await page.addInitScript(() => {
      const send = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => {
        const ok = send(url, data);
        const log = JSON.parse(sessionStorage.getItem('beacons') ?? '[]');
        sessionStorage.setItem('beacons', JSON.stringify([...log, { url: String(url), ok, events: JSON.parse(String(data)).events.map((e: { type: string }) => e.type) }]));
        return ok;
      };
    });

    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6); // over GET /api/recommendations
    await page.click(`${card('5')} .pw-save`);
    await expect.poll(() => failedFetches).toBeGreaterThan(0);
    expect(await pending(page)).toBeGreaterThan(0);
    await page.goto(`${storefront.url}/products/product-1`);

    await expect.poll(async () => ids(await recommendations(t, 'strategy=trending&limit=6'))).toEqual(['1', '2', '3', '5', '4', '6']);
    const beacons = await page.evaluate(() => JSON.parse(sessionStorage.getItem('beacons') ?? '[]'));
    expect(beacons).toEqual([{ url: expect.stringMatching(/\/api\/events\/batch\?key=pk_/), ok: true, events: expect.arrayContaining(['save']) }]);
  });

  test('When an event is acknowledged over HTTP, then the next pages ask for their lists after its position, and a position the service does not know is dropped', async () => {
    // No socket: events and lists over HTTP, as behind a proxy that refuses WebSockets.
    await page.routeWebSocket(/\/api\/stream/, (ws) => ws.close({ code: 1011 }));
    const listUrls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/recommendations')) listUrls.push(request.url());
    });
    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    expect(listUrls.every((url) => !url.includes('after='))).toBe(true); // nothing written yet
    await page.click(`${card('5')} .pw-save`);
    await expect.poll(() => pending(page)).toBe(0);
    const position = await page.evaluate(() => sessionStorage.getItem('pairwise.position'));
    expect(position).toMatch(/^[a-z0-9]{8}\.[0-9a-z]+$/);

    listUrls.length = 0;
    await page.goto(`${storefront.url}/trending`); // the next page
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    expect(listUrls.length).toBeGreaterThan(0);
    expect(listUrls.every((url) => new URL(url).searchParams.get('after') === position)).toBe(true);

    // A position of another data dir (the service was reset): the lists still come, asked again without it.
    await page.evaluate(() => sessionStorage.setItem('pairwise.position', 'zzzzzzzz.1'));
    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6);
    expect(await page.evaluate(() => sessionStorage.getItem('pairwise.position'))).toBeNull();
  });

  test('When the page carries a customer token the service refuses (a cached page, an expired token), then the lists still come and the events are stored as the session, with a console warning', async () => {
    const t = shop.current!;
    const good = customerToken(t.shop, 'cust-7');
    const refused = good.slice(0, -3) + (good.endsWith('AAA') ? 'BBB' : 'AAA'); // its signature tampered
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(`${storefront.url}/as/cust-7/${refused}`);
    await expect.poll(() => page.locator('.pw-card').count()).toBe(6); // the session's list
    await page.click(`${card('4')} .pw-save`);
    await expect.poll(() => pending(page)).toBe(0);
    const saves = storedEvents(t.service.dbs, t.shop.shopId).map((e) => e.event).filter((e) => e.type === 'save' && e.productId === '4');
    expect(saves).toHaveLength(1);
    expect(saves[0]!.customerId).toBeUndefined();
    expect(saves[0]!.sessionId).toBe(await sessionIdOf(page));
    expect(warnings.some((w) => w.includes('customer token is no longer good'))).toBe(true);
  });

  test('When another shopper’s purchases change the list, then the open carousel updates in place, but not under the pointer', async () => {
    const t = shop.current!;
    await page.goto(`${storefront.url}/trending`);
    await expect.poll(() => cardIds(page)).toEqual(['1', '2', '3', '4', '5', '6']);
    await page.evaluate(() => {
      (window as any).sameDocument = true;
      (document.querySelector('.pw-card[data-product-id="2"]') as any).kept = true;
    });
    await page.hover(`${card('3')} img`);

    const purchases = Array.from({ length: 8 }, (_, i) => ({ type: 'purchase', productId: '9', sessionId: `other-${i}` }));
    const res = await t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events: purchases }) });
    expect(res.status).toBe(200);

    // The new list waits while the pointer is over the carousel…
    await page.waitForSelector('section.pw-carousel[data-pw-pending]', { state: 'attached' });
    expect(await cardIds(page)).toEqual(['1', '2', '3', '4', '5', '6']);
    // …and comes in when it leaves: no reload, the unchanged cards are the same nodes.
    await page.mouse.move(1, 1);
    await expect.poll(() => cardIds(page)).toEqual(['9', '1', '2', '3', '4', '5']);
    expect(await page.evaluate(() => (window as any).sameDocument)).toBe(true);
    expect(await page.evaluate(() => (document.querySelector('.pw-card[data-product-id="2"]') as any).kept)).toBe(true);
    expect(ids(await recommendations(t, `strategy=trending&limit=6&sessionId=${await sessionIdOf(page)}`))).toEqual(await cardIds(page));
  });
});
