// Rate limits over HTTP: token buckets per client address and per API key, 429 rate_limited with
// Retry-After and the RateLimit fields, recovery after the wait, shops and addresses independent, and
// bounded bucket tables. Requests come from chosen loopback addresses (loopback is exempt by
// default, so these services exempt nothing) and time is a fake monotonic clock.
import { afterEach, describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { generateKey } from '../../src/store/shop-store.js';
import { fetchFrom, type PlainResponse } from '../support/from-address.js';
import { expectProblem } from '../support/problem.js';
import { startRateLimited, startTestService, type TestService } from '../support/service.js';

const RECS = '/api/recommendations?strategy=trending';

describe('rate limits over HTTP', () => {
  const started: TestService[] = [];
  let now = 1_000;
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(env: Record<string, string>): Promise<TestService> {
    now = 1_000;
    const t = await startRateLimited(env, () => now);
    started.push(t);
    return t;
  }

  async function addShop(t: TestService, shopId: string): Promise<{ publicKey: string; secretKey: string }> {
    const keys = { publicKey: generateKey('public'), secretKey: generateKey('secret') };
    await t.service.shops.ensureShop(shopId);
    await t.service.shops.addKey(shopId, keys.publicKey);
    await t.service.shops.addKey(shopId, keys.secretKey);
    return keys;
  }

  /** Statuses of `count` requests made one after another (the fake clock does not move). */
  async function statuses(count: number, send: () => Promise<PlainResponse>): Promise<number[]> {
    const result: number[] = [];
    for (let i = 0; i < count; i++) result.push((await send()).status);
    return result;
  }

  function asProblem(res: PlainResponse): Response {
    return new Response(res.body, { status: res.status, headers: { 'content-type': String(res.headers['content-type']) } });
  }

  test('When a client bursts past its address limit, then it gets 429 rate_limited with Retry-After, RateLimit and RateLimit-Policy', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '2', PAIRWISE_RATE_ADDRESS_BURST: '3' });
    const get = () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey });

    expect(await statuses(3, get)).toEqual([200, 200, 200]);
    const refused = await get();

    const body = await expectProblem(asProblem(refused), 429, 'rate_limited');
    expect(body.detail).toBe('this client address may make 2 requests, WebSocket operations and events a second (bursts of 3); retry after 1 s');
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['ratelimit']).toBe('"address";r=0;t=1');
    expect(refused.headers['ratelimit-policy']).toBe('"address";q=2;w=1;pairwise-burst=3');
  });

  test('When a refused client waits as told, then its requests succeed again, as many as the bucket refilled', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '2', PAIRWISE_RATE_ADDRESS_BURST: '3' });
    const get = () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey });
    expect(await statuses(4, get)).toEqual([200, 200, 200, 429]);

    now += 500; // one token at 2 a second
    expect(await statuses(2, get)).toEqual([200, 429]);
    now += 10_000; // full again: a burst, not ten seconds' worth
    expect(await statuses(4, get)).toEqual([200, 200, 200, 429]);
  });

  test("When shop A's public key is flooded to 429, then shop B's requests from the same address still succeed", async () => {
    const t = await start({ PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: '1', PAIRWISE_RATE_PUBLIC_KEY_BURST: '3', PAIRWISE_RATE_ADDRESS_PER_SECOND: '0' });
    const b = await addShop(t, 'shop-b');
    // Several addresses: a key's bucket is shared by all of them.
    const fromA = (i: number) => fetchFrom(t.url + RECS, `127.0.0.${2 + (i % 3)}`, { key: t.shop.publicKey });

    const flood = await Promise.all(Array.from({ length: 20 }, (_, i) => fromA(i)));
    const refused = flood.filter((res) => res.status === 429);
    expect(flood.filter((res) => res.status === 200)).toHaveLength(3);
    expect(refused[0]!.headers['ratelimit']).toBe('"public-key";r=0;t=1');
    expect(refused[0]!.headers['ratelimit-policy']).toBe('"public-key";q=1;w=1;pairwise-burst=3');

    expect(await statuses(3, () => fetchFrom(t.url + RECS, '127.0.0.2', { key: b.publicKey }))).toEqual([200, 200, 200]);
    expect((await fromA(0)).status).toBe(429);
  });

  test('When one address uses two shops’ keys, then both count against its one address bucket; another address has its own', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const b = await addShop(t, 'shop-b');

    expect((await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey })).status).toBe(200);
    expect((await fetchFrom(t.url + RECS, '127.0.0.2', { key: b.publicKey })).status).toBe(200);
    const refused = await fetchFrom(t.url + RECS, '127.0.0.2', { key: b.publicKey });
    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit']).toBe('"address";r=0;t=1');
    expect((await fetchFrom(t.url + RECS, '127.0.0.3', { key: t.shop.publicKey })).status).toBe(200);
  });

  test('When requests carry no key or an unknown key, then they count against the address too (401, then 429)', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const bogus = () => fetchFrom(t.url + RECS, '127.0.0.2', { key: generateKey('public') });
    const bogusSecret = () => fetchFrom(t.url + '/metrics', '127.0.0.3', { key: generateKey('secret') });

    expect(await statuses(3, bogus)).toEqual([401, 401, 429]);
    expect(await statuses(3, bogusSecret)).toEqual([401, 401, 429]);
    expect((await fetchFrom(t.url + RECS, '127.0.0.2')).status).toBe(429);
    expect(t.service.limits.stats().keyBuckets).toBe(0); // invalid keys never get a bucket
  });

  test('When a secret key calls from one address, then only its key limit applies, not the address limit', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1', PAIRWISE_RATE_SECRET_KEY_PER_SECOND: '1', PAIRWISE_RATE_SECRET_KEY_BURST: '4' });
    const admin = () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.secretKey });

    expect(await statuses(5, admin)).toEqual([200, 200, 200, 200, 429]);
    expect((await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey })).status).toBe(200);
    const refused = await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey });
    expect(refused.headers['ratelimit']).toBe('"address";r=0;t=1');
  });

  test('When a browser is refused, then the 429 carries CORS headers and exposes the rate-limit fields to its script', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1' });
    const browser = () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey, headers: { origin: 'https://shop.example' } });
    expect((await browser()).status).toBe(200);

    const refused = await browser();
    expect(refused.status).toBe(429);
    expect(refused.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(refused.headers['access-control-expose-headers']).toBe('Retry-After, RateLimit, RateLimit-Policy');
  });

  test('When events are flooded, then POST /api/events/batch is limited like a read and stores nothing it refused', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const post = (i: number) =>
      fetchFrom(t.url + '/api/events/batch', '127.0.0.2', { method: 'POST', key: t.shop.publicKey, body: JSON.stringify({ events: [{ type: 'view', productId: String(i), sessionId: 's' }] }) });

    expect([(await post(1)).status, (await post(2)).status, (await post(3)).status]).toEqual([200, 200, 429]);
    expect(t.service.engines.get(t.shop.shopId).eventCount).toBe(2);
  });

  /** A batch of `count` view events from `from` with `key`. */
  function postBatch(t: TestService, from: string, count: number, key = t.shop.publicKey): Promise<PlainResponse> {
    const events = Array.from({ length: count }, (_, i) => ({ type: 'view', productId: String(i), sessionId: 's' }));
    return fetchFrom(t.url + '/api/events/batch', from, { method: 'POST', key, body: JSON.stringify({ events }) });
  }

  test('When a batch of events is stored, then it costs its address one token per event, as single events would', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '5', PAIRWISE_RATE_ADDRESS_BURST: '10' });

    expect((await postBatch(t, '127.0.0.2', 10)).status).toBe(200);
    const refused = await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey });

    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit']).toBe('"address";r=0;t=1');
    expect((await fetchFrom(t.url + RECS, '127.0.0.3', { key: t.shop.publicKey })).status).toBe(200);
  });

  test('When a batch is larger than the burst, then it passes on a full bucket and the address owes the rest: refused until it is paid back', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '2', PAIRWISE_RATE_ADDRESS_BURST: '3' });

    expect((await postBatch(t, '127.0.0.2', 10)).status).toBe(200);
    const refused = await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey });
    // 10 tokens at 2 a second from a bucket of 3: one is there again after (10 - 3 + 1) / 2 s.
    expect(refused.headers['retry-after']).toBe('4');

    now += 3_900;
    expect((await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey })).status).toBe(429);
    now += 100;
    expect((await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey })).status).toBe(200);
  });

  test("When batches come from many addresses, then the public key's bucket counts their events too", async () => {
    const t = await start({ PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: '1', PAIRWISE_RATE_PUBLIC_KEY_BURST: '20', PAIRWISE_RATE_ADDRESS_PER_SECOND: '0' });

    expect((await postBatch(t, '127.0.0.2', 15)).status).toBe(200);
    expect((await postBatch(t, '127.0.0.3', 5)).status).toBe(200);
    const refused = await fetchFrom(t.url + RECS, '127.0.0.4', { key: t.shop.publicKey });

    expect(refused.status).toBe(429);
    expect(refused.headers['ratelimit']).toBe('"public-key";r=0;t=1');
  });

  test("When the merchant's server sends batches with the secret key, then each request is one token of its key, whatever it carries", async () => {
    const t = await start({ PAIRWISE_RATE_SECRET_KEY_PER_SECOND: '1', PAIRWISE_RATE_SECRET_KEY_BURST: '3' });
    expect([(await postBatch(t, '127.0.0.2', 100, t.shop.secretKey)).status, (await postBatch(t, '127.0.0.2', 100, t.shop.secretKey)).status]).toEqual([200, 200]);
    expect((await fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.secretKey })).status).toBe(200);
  });

  test('When loopback is exempt (the default) or an address is listed, then those clients are never limited', async () => {
    const byDefault = await startTestService({ env: { PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1' }, monotonic: () => now });
    started.push(byDefault);
    expect(await statuses(5, () => fetchFrom(byDefault.url + RECS, '127.0.0.2', { key: byDefault.shop.publicKey }))).toEqual([200, 200, 200, 200, 200]);

    const t = await start({ PAIRWISE_RATE_LIMIT_EXEMPT: '127.0.0.3, ::1', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1' });
    expect(await statuses(3, () => fetchFrom(t.url + RECS, '127.0.0.3', { key: t.shop.publicKey }))).toEqual([200, 200, 200]);
    expect(await statuses(2, () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey }))).toEqual([200, 429]);
  });

  test('When rate limits are turned off, then nothing is refused', async () => {
    const t = await start({ PAIRWISE_RATE_LIMITS: '0', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1' });
    expect(await statuses(4, () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey }))).toEqual([200, 200, 200, 200]);
    expect(Object.values(t.service.limits.stats().refused).every((count) => count === 0)).toBe(true);
    expect(t.service.limits.stats()).toMatchObject({ addressBuckets: 0, keyBuckets: 0, newSessionBuckets: 0, signInBuckets: 0 });
  });

  test('When more distinct addresses call than the table holds, then it stays at its cap and /metrics shows it', async () => {
    const t = await start({ PAIRWISE_RATE_LIMIT_ENTRIES: '16', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1' });
    for (let i = 0; i < 40; i++) {
      const res = await fetchFrom(t.url + RECS, `127.0.1.${i + 1}`, { key: t.shop.publicKey });
      expect(res.status).toBe(200);
      expect(t.service.limits.stats().addressBuckets).toBeLessThanOrEqual(16);
    }
    expect(t.service.limits.stats().addressBuckets).toBe(16);
    const metrics = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
    expect(metrics).toMatch(/^pairwise_rate_limit_buckets\{table="address",server="1"\} 16$/m);
    expect(metrics).toMatch(/^pairwise_rate_limited_total\{kind="address"\} 0$/m);
  });

  test('When requests are refused, then /metrics counts each under the limit that refused it', async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2', PAIRWISE_RATE_SECRET_KEY_PER_SECOND: '1', PAIRWISE_RATE_SECRET_KEY_BURST: '1' });
    expect(await statuses(5, () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey }))).toEqual([200, 200, 429, 429, 429]);
    expect(await statuses(2, () => fetchFrom(t.url + '/api/products', '127.0.0.3', { key: t.shop.secretKey }))).toEqual([200, 429]);
    now += 1_000; // the key's bucket has a token again
    const metrics = (await fetchFrom(t.url + '/metrics', '127.0.0.4', { key: t.shop.secretKey })).body;
    expect(metrics).toMatch(/^pairwise_rate_limited_total\{kind="address"\} 3$/m);
    expect(metrics).toMatch(/^pairwise_rate_limited_total\{kind="secret-key"\} 1$/m);
    expect(metrics).toMatch(/^pairwise_rate_limited_total\{kind="public-key"\} 0$/m);
    expect(metrics).toMatch(/^pairwise_http_requests_total\{route="\/api\/recommendations",method="GET",status="429"\} 3$/m);
  });
});

describe('rate limit configuration', () => {
  test('When several server processes share the port, then each allows its share of every rate and burst (rounded up), a connection its own', () => {
    const { rateLimits } = loadConfig({ PAIRWISE_SERVERS: '4' });
    expect(rateLimits).toMatchObject({
      address: { perSecond: 13, burst: 25 },
      publicKey: { perSecond: 1250, burst: 2500 },
      secretKey: { perSecond: 1250, burst: 2500 },
      socket: { perSecond: 20, burst: 40 },
      newSessionsPerAddress: { perSecond: 30 / 60, burst: 30 },
      newSessionsPerShop: { perSecond: 1500 / 60, burst: 1500 },
    });
  });

  test('When nothing is set, then the defaults apply: loopback exempt, 50/s per address, 5000/s per key, 20/s per connection, bursts of two seconds; 120 new sessions a minute per address, 6000 per shop, 30 sign-ins a minute per address, bursts of a minute', () => {
    const { rateLimits } = loadConfig({ PAIRWISE_SERVERS: '1' });
    expect(rateLimits).toEqual({
      enabled: true,
      exemptLoopback: true,
      exemptAddresses: [],
      address: { perSecond: 50, burst: 100 },
      publicKey: { perSecond: 5000, burst: 10_000 },
      secretKey: { perSecond: 5000, burst: 10_000 },
      socket: { perSecond: 20, burst: 40 },
      newSessionsPerAddress: { perSecond: 2, burst: 120 },
      newSessionsPerShop: { perSecond: 100, burst: 6000 },
      signInsPerAddress: { perSecond: 0.5, burst: 30 },
      maxEntries: 100_000,
    });
  });

  test('When the exempt list or a rate is malformed, then the configuration is refused', () => {
    expect(() => loadConfig({ PAIRWISE_RATE_LIMIT_EXEMPT: 'loopback, 10.0.0.0/8' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '-1' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAIRWISE_RATE_ADDRESS_BURST: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ PAIRWISE_NEW_SESSIONS_PER_ADDRESS_PER_MINUTE: '1.5' })).toThrow(ConfigError);
    expect(loadConfig({ PAIRWISE_NEW_SESSIONS_PER_SHOP_PER_MINUTE: '0' }).rateLimits.newSessionsPerShop).toEqual({ perSecond: 0, burst: 1 });
    expect(loadConfig({ PAIRWISE_RATE_LIMIT_EXEMPT: ' 10.0.0.5 ,loopback' }).rateLimits).toMatchObject({ exemptLoopback: true, exemptAddresses: ['10.0.0.5'] });
  });
});
