// A shop's scheduled product feed (PUT /api/integrations/feed) against the real server, LMDB and a
// feed served over HTTP on this machine: the first pull follows the PUT at once, 10,000 items stored,
// a later pull that no longer lists some makes them unavailable, an unchanged feed is a 304, and by
// default an address on this machine is never fetched.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';
import { until } from '../support/until.js';
import { dashboardSession } from '../support/dashboard-session.js';

const HEADER = ['id', 'title', 'description', 'link', 'availability', 'price', 'brand', 'product_type'].join('\t');

/** A tab-separated feed of items `from`..`to`-1. */
function feed(from: number, to: number): string {
  const lines = [HEADER];
  for (let i = from; i < to; i++) lines.push([`SKU-${i}`, `Product ${i}`, '', `https://shop.example/p/${i}`, 'in_stock', `${(10 + (i % 90)).toFixed(2)} USD`, `Brand ${i % 7}`, `Home > Group ${i % 13}`].join('\t'));
  return `${lines.join('\n')}\n`;
}

interface FeedServer {
  url: string;
  requests: { ifNoneMatch: string | undefined }[];
  serve(text: string): void;
  close(): Promise<void>;
}

async function feedServer(): Promise<FeedServer> {
  let body = '';
  const requests: FeedServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    requests.push({ ifNoneMatch: req.headers['if-none-match'] });
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/tab-separated-values', etag }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.tsv`,
    requests,
    serve: (text) => {
      body = text;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface FeedView {
  configured: boolean;
  url?: string;
  everyMinutes?: number;
  last?: { complete: boolean; notModified?: boolean; seen: number; changed: number; refused: number; unlisted: number; error?: string; endedAt: string };
}

const view = async (t: TestService) => (await (await t.fetch('/api/integrations/feed', { key: t.shop.secretKey })).json()) as FeedView;

describe('scheduled product feeds', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  test('When a feed is set, then it is pulled at once; a later pull makes unavailable what it no longer lists, and an unchanged feed is not read again', async () => {
    const served = await feedServer();
    cleanups.push(() => served.close());
    served.serve(feed(0, 10_000));
    const t = await startTestService({ env: { PAIRWISE_FEED_ALLOW_PRIVATE: '1' } });
    cleanups.push(() => t.cleanup());

    const put = await t.fetch('/api/integrations/feed', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ url: served.url, everyMinutes: 60 }) });
    expect(put.status).toBe(200);
    const first = await until('the first pull', 60_000, async () => ((await view(t)).last?.complete ? view(t) : undefined));
    expect(first).toMatchObject({ configured: true, url: served.url, everyMinutes: 60, last: { complete: true, seen: 10_000, changed: 10_000, refused: 0, unlisted: 0 } });
    const shop = (await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { counts: { products: number } };
    expect(shop.counts.products).toBe(10_000);
    // The dashboard shows the feed and its last pull.
    const { cookie } = await dashboardSession(t.url, t.shop.secretKey);
    const page = await (await fetch(`${t.url}/dashboard`, { headers: { cookie } })).text();
    expect(page).toContain(`${served.url} every 60 min`);
    expect(page).toContain('10,000 products, 10,000 changed, 0 refused, 0 no longer listed');

    served.serve(feed(10, 10_000));
    const second = await t.service.feedPulls.pull(t.shop.shopId);
    expect(second).toMatchObject({ complete: true, seen: 9_990, changed: 0, unlisted: 10 });
    const gone = (await (await t.fetch('/api/products/SKU-3', { key: t.shop.secretKey })).json()) as { available: boolean };
    expect(gone.available).toBe(false);
    const kept = (await (await t.fetch('/api/products/SKU-30', { key: t.shop.secretKey })).json()) as { available: boolean };
    expect(kept.available).toBe(true);

    const third = await t.service.feedPulls.pull(t.shop.shopId);
    expect(third).toMatchObject({ complete: true, notModified: true });
    expect(served.requests.at(-1)!.ifNoneMatch).toMatch(/^"[0-9a-f]{40}"$/);

    // A page that is not a feed (an error page, a login wall): the pull fails and nothing is made unavailable.
    served.serve('<!doctype html><html><body>Sign in</body></html>');
    const failed = await t.service.feedPulls.pull(t.shop.shopId);
    expect(failed).toMatchObject({ complete: false, unlisted: 0 });
    expect(failed!.error).toContain('is not a product feed');
    expect(((await (await t.fetch('/api/products/SKU-30', { key: t.shop.secretKey })).json()) as { available: boolean }).available).toBe(true);
    expect((await view(t)).last).toMatchObject({ complete: false, error: failed!.error });
  });

  test('When the feed is on this machine and private addresses are not allowed (the default), then it is never fetched and the pull says why', async () => {
    const served = await feedServer();
    cleanups.push(() => served.close());
    served.serve(feed(0, 10));
    const t = await startTestService();
    cleanups.push(() => t.cleanup());
    expect((await t.fetch('/api/integrations/feed', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ url: served.url, everyMinutes: 60 }) })).status).toBe(200);
    const last = await until('the first pull', 30_000, async () => (await view(t)).last);
    expect(last.complete).toBe(false);
    expect(last.error).toContain('private or special address');
    expect(served.requests).toEqual([]);
  });

  test('When the settings are bad or the key is public, then they are refused; DELETE stops the feed', async () => {
    const t = await startTestService();
    cleanups.push(() => t.cleanup());
    const put = (body: unknown, key = t.shop.secretKey) => t.fetch('/api/integrations/feed', { method: 'PUT', key, body: JSON.stringify(body) });
    for (const body of [{ url: 'ftp://shop.example/feed.xml', everyMinutes: 60 }, { url: 'https://shop.example/feed.xml', everyMinutes: 5 }, { url: 'https://shop.example/feed.xml', everyMinutes: 20_000 }, { url: 'not a url' }, {}]) {
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_integration');
    }
    expect((await put({ url: 'https://shop.example/feed.xml', everyMinutes: 60 }, t.shop.publicKey)).status).toBe(403);
    expect(await view(t)).toEqual({ configured: false });
    expect((await t.fetch('/api/integrations/feed', { method: 'DELETE', key: t.shop.secretKey })).status).toBe(200);
    expect(await view(t)).toEqual({ configured: false });
  });
});
