// Browser tests drive Debian's chromium (never a downloaded browser) through playwright-core, and
// serve a merchant's storefront fixture from another origin than the service, as in real life.
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page, type WebSocket } from 'playwright-core';
import type { TestService } from './service.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = path.resolve('test/artifacts');

/** One headless chromium per test file; playwright gives it a fresh temporary user-data-dir. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file, fullPage });
  return file;
}

export interface Storefront {
  readonly url: string;
  close(): Promise<void>;
}

/** A tiny web server for fixture pages: `pages` answers a path with HTML, or undefined for 404. */
export async function startStorefront(pages: (pathname: string) => { type?: string; body: string } | undefined): Promise<Storefront> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const page = pages(new URL(req.url ?? '/', 'http://x').pathname);
    if (page === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': page.type ?? 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The events the page sent over its WebSocket(s) (op event/events), in order. */
export function recordSocketEvents(page: Page): Record<string, any>[] {
  const events: Record<string, any>[] = [];
  page.on('websocket', (socket: WebSocket) => {
    socket.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      const message = JSON.parse(payload) as Record<string, any>;
      if (message.op === 'event') events.push(message.event);
      if (message.op === 'events') events.push(...message.events);
    });
  });
  return events;
}

/** Events applied to a shop's models since start, from GET /metrics (secret key). */
export async function eventsApplied(t: TestService, shopId = t.shop.shopId, key = t.shop.secretKey): Promise<number> {
  const res = await t.fetch('/metrics', { key });
  const text = await res.text();
  const match = new RegExp(`pairwise_events_applied_total\\{shop="${shopId}"\\} (\\d+)`).exec(text);
  if (match === null) throw new Error(`no events counter for ${shopId} in /metrics`);
  return Number(match[1]);
}

/** The widget's session id, as it keeps it. */
export function sessionIdOf(page: Page): Promise<string> {
  return page.evaluate(() => sessionStorage.getItem('pairwise.sessionId') ?? '');
}

/** Bare product ids of the cards in a widget, in order. */
export function cardIds(page: Page, widget = '[data-pairwise]'): Promise<string[]> {
  return page.locator(`${widget} .pw-card`).evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.productId ?? ''));
}

/** Opens the service's dashboard in `page` and signs in with the demo shop's secret key. */
export async function signInToDashboard(page: Page, t: TestService): Promise<void> {
  await page.goto(`${t.url}/dashboard`);
  await page.fill('#key', t.service.demoKeys!.secretKey);
  await page.click('button[type="submit"]');
  await page.waitForSelector('body[data-loaded]');
}
