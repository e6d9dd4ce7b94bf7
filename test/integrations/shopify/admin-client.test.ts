import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AdminClient, nextPageUrl, paceSeconds } from '../../../src/integrations/shopify/admin-client.js';
import { PlatformApiError } from '../../../src/integrations/retrying-get.js';
import { generateShop, startShopifyStandIn, type StandIn } from '../../support/shopify-stand-in.js';

const TOKEN = 'shpat_test';
const shop = generateShop({ products: 600, orders: 10, now: Date.UTC(2026, 10, 1) });

/** A clock the stand-in's bucket leaks by, moved only by the client's sleeps: waits are counted, not taken. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    clock: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('AdminClient', () => {
  let standIn: StandIn;
  const time = fakeTime();
  beforeAll(async () => {
    standIn = await startShopifyStandIn(shop, { accessToken: TOKEN, clock: time.clock });
  });
  afterAll(() => standIn.close());

  test('When a list has several pages, then following rel="next" reads every item once, 250 a page', async () => {
    const client = new AdminClient({ apiUrl: standIn.apiUrl, accessToken: TOKEN, sleep: time.sleep });
    const ids: unknown[] = [];
    let url: string | undefined = client.url('products.json', { limit: 250 });
    let pages = 0;
    while (url !== undefined) {
      const page: { items: { id: unknown }[]; next: string | undefined } = await client.page(url, 'products');
      ids.push(...page.items.map((p) => p.id));
      url = page.next;
      pages++;
    }
    expect(pages).toBe(3);
    expect(ids).toEqual(shop.products.map((p) => p.id));
  });

  test('When the bucket fills, then the client waits for it to leak instead of meeting a 429', async () => {
    const slow = fakeTime();
    const small = await startShopifyStandIn(shop, { accessToken: TOKEN, bucketSize: 8, leakPerSecond: 2, clock: slow.clock });
    try {
      const client = new AdminClient({ apiUrl: small.apiUrl, accessToken: TOKEN, sleep: slow.sleep });
      for (let i = 0; i < 30; i++) await client.count('products/count.json');
      expect(small.requests.filter((r) => r.status === 429)).toEqual([]);
      expect(small.requests).toHaveLength(30);
      // 30 requests through a bucket of 8 leaking 2 a second: at least (30 - 8) / 2 s of waiting.
      expect(slow.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(11_000);
    } finally {
      await small.close();
    }
  });

  test('When Shopify answers 429 with Retry-After, or a 5xx, then the request is made again after the wait', async () => {
    const client = new AdminClient({ apiUrl: standIn.apiUrl, accessToken: TOKEN, sleep: time.sleep });
    const before = time.sleeps.length;
    standIn.failNext(1, 429);
    standIn.failNext(2, 503);
    expect(await client.count('products/count.json')).toBe(600);
    expect(standIn.requests.slice(-4).map((r) => r.status)).toEqual([429, 503, 503, 200]);
    // Retry-After: 2.0 (seconds) first, then growing waits for the 5xx answers.
    expect(time.sleeps.slice(before)).toEqual([2000, 2000, 4000]);
  });

  test('When failures go on, or the token is refused, then it stops with an error that says why', async () => {
    const client = new AdminClient({ apiUrl: standIn.apiUrl, accessToken: TOKEN, sleep: time.sleep });
    standIn.failNext(8, 500);
    await expect(client.count('products/count.json')).rejects.toThrow(/answered 500 8 times/);
    const wrong = new AdminClient({ apiUrl: standIn.apiUrl, accessToken: 'shpat_wrong', sleep: time.sleep });
    const refused = wrong.count('products/count.json');
    await expect(refused).rejects.toBeInstanceOf(PlatformApiError);
    await expect(refused).rejects.toThrow(/401: the access token was not accepted.*Invalid API key or access token/);
  });
});

describe('nextPageUrl and paceSeconds', () => {
  test('When a Link header has previous and next, then next is read, whatever the spacing and order', () => {
    const next = 'https://acme.myshopify.com/admin/api/2026-10/products.json?limit=250&page_info=abc';
    expect(nextPageUrl(`<https://acme.myshopify.com/admin/api/2026-10/products.json?limit=250&page_info=prev>; rel="previous", <${next}>; rel="next"`)).toBe(next);
    expect(nextPageUrl(`<${next}>;rel=next`)).toBe(next);
    expect(nextPageUrl('<https://x/a>; rel="previous"')).toBeUndefined();
    expect(nextPageUrl(null)).toBeUndefined();
  });

  test('When the bucket is near full, then the wait is what it takes to leave 4 requests free at 2 a second', () => {
    expect(paceSeconds('1/40')).toBe(0);
    expect(paceSeconds('36/40')).toBe(0);
    expect(paceSeconds('40/40')).toBe(2);
    expect(paceSeconds('39/80')).toBe(0);
    expect(paceSeconds('garbage')).toBe(0);
    expect(paceSeconds(null)).toBe(0);
  });
});
