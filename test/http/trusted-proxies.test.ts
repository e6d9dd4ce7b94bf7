// Rate limits behind a reverse proxy (PAIRWISE_TRUSTED_PROXIES): the proxy is 127.0.0.1 and says
// whom it forwards for in X-Forwarded-For or Forwarded; other loopback addresses play clients that
// reach the server directly. Time is a fake monotonic clock that does not move unless told.
import { afterEach, describe, expect, test } from 'vitest';
import { fetchFrom, type PlainResponse } from '../support/from-address.js';
import { startTestService, type TestService } from '../support/service.js';

const RECS = '/api/recommendations?strategy=trending';
const PROXY = '127.0.0.1';
const FLOODER = '203.0.113.7';
const SHOPPER = '198.51.100.9';

describe('rate limits behind a trusted proxy', () => {
  const started: TestService[] = [];
  let now = 1_000;
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(env: Record<string, string>): Promise<TestService> {
    now = 1_000;
    const t = await startTestService({ env, monotonic: () => now });
    started.push(t);
    return t;
  }

  function via(t: TestService, headers: Record<string, string | string[]>, from = PROXY): Promise<PlainResponse> {
    return fetchFrom(t.url + RECS, from, { key: t.shop.publicKey, headers });
  }

  test('When one client floods the shop’s public key through the proxy, then it gets 429s while a shopper behind the same proxy keeps getting 200s', async () => {
    // Before trusted proxies every request here came from the proxy's address: the flooder emptied
    // that one bucket for every shopper behind the proxy.
    const t = await start({
      PAIRWISE_TRUSTED_PROXIES: PROXY,
      PAIRWISE_RATE_LIMIT_EXEMPT: '',
      PAIRWISE_RATE_ADDRESS_PER_SECOND: '1',
      PAIRWISE_RATE_ADDRESS_BURST: '5',
      PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: '1',
      PAIRWISE_RATE_PUBLIC_KEY_BURST: '20',
    });
    const flooder: PlainResponse[] = [];
    const shopper: PlainResponse[] = [];
    for (let i = 0; i < 60; i++) {
      flooder.push(await via(t, { 'x-forwarded-for': FLOODER }));
      if (i % 15 === 14) shopper.push(await via(t, { 'x-forwarded-for': SHOPPER }));
    }

    // Status and the bucket that refused, if one did.
    const outcome = (res: PlainResponse) => `${res.status} ${res.headers['ratelimit'] ?? ''}`.trim();
    expect(shopper.map(outcome)).toEqual(['200', '200', '200', '200']);
    expect(flooder.map(outcome)).toEqual([...Array<string>(5).fill('200'), ...Array<string>(55).fill('429 "address";r=0;t=1')]);
  });

  test('When a request is refused by its address bucket, then it takes nothing from its key’s bucket', async () => {
    const t = await start({
      PAIRWISE_TRUSTED_PROXIES: PROXY,
      PAIRWISE_RATE_LIMIT_EXEMPT: '',
      PAIRWISE_RATE_ADDRESS_PER_SECOND: '1',
      PAIRWISE_RATE_ADDRESS_BURST: '2',
      PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: '1',
      PAIRWISE_RATE_PUBLIC_KEY_BURST: '5',
    });
    const flood: number[] = [];
    for (let i = 0; i < 20; i++) flood.push((await via(t, { 'x-forwarded-for': FLOODER })).status);
    expect(flood).toEqual([200, 200, ...Array<number>(18).fill(429)]);

    // The key has 3 of its 5 left: two shoppers take them, then the key itself is empty.
    const statuses = [];
    for (const shopper of [SHOPPER, SHOPPER, '198.51.100.10', '198.51.100.10']) statuses.push((await via(t, { 'x-forwarded-for': shopper })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await via(t, { 'x-forwarded-for': '198.51.100.11' })).headers['ratelimit']).toBe('"public-key";r=0;t=1');
  });

  test('When the server listens on loopback only with loopback exempt (the defaults), then forwarded clients are still limited and the proxy’s own requests are not', async () => {
    const t = await start({ PAIRWISE_TRUSTED_PROXIES: `${PROXY},::1`, PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    expect([(await via(t, { 'x-forwarded-for': FLOODER })).status, (await via(t, { 'x-forwarded-for': FLOODER })).status, (await via(t, { 'x-forwarded-for': FLOODER })).status]).toEqual([200, 200, 429]);
    // A forwarded client that is itself loopback (a tool beside the proxy) is exempt by its own address.
    for (let i = 0; i < 4; i++) expect((await via(t, { 'x-forwarded-for': '127.0.0.9' })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await via(t, {})).status).toBe(200);
  });

  test('When no proxy is trusted, then a spoofed X-Forwarded-For or Forwarded changes nothing: the peer is the client', async () => {
    const t = await start({ PAIRWISE_RATE_LIMIT_EXEMPT: '', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const spoofed: Record<string, string>[] = [{ 'x-forwarded-for': '192.0.2.1' }, { forwarded: 'for=192.0.2.2' }, { 'x-forwarded-for': '192.0.2.3' }];
    const statuses = [];
    for (const headers of spoofed) statuses.push((await via(t, headers, '127.0.0.2')).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  test('When a peer that is not a trusted proxy sends the headers, then they are ignored there too', async () => {
    const t = await start({ PAIRWISE_TRUSTED_PROXIES: PROXY, PAIRWISE_RATE_LIMIT_EXEMPT: '', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const statuses = [];
    for (const client of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) statuses.push((await via(t, { 'x-forwarded-for': client }, '127.0.0.2')).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect((await via(t, { 'x-forwarded-for': '192.0.2.1' })).status).toBe(200); // the same header through the proxy: a client of its own
  });

  test('When the proxy writes Forwarded, then for= is read (IPv6 bracketed, with a port; its /64 one client) and X-Forwarded-For is not', async () => {
    const t = await start({ PAIRWISE_TRUSTED_PROXIES: PROXY, PAIRWISE_RATE_LIMIT_EXEMPT: '', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const from = (host: string, xff: string) => via(t, { forwarded: `for="[2001:db8:1:2::${host}]:4711";proto=https`, 'x-forwarded-for': xff });
    expect([(await from('a', '192.0.2.1')).status, (await from('b', '192.0.2.2')).status, (await from('c', '192.0.2.3')).status]).toEqual([200, 200, 429]);
    expect((await via(t, { forwarded: 'for="[2001:db8:1:3::a]"' })).status).toBe(200);
  });

  test('When the client sends its own X-Forwarded-For line and the proxy adds another, then the proxy’s entry decides', async () => {
    const t = await start({ PAIRWISE_TRUSTED_PROXIES: PROXY, PAIRWISE_RATE_LIMIT_EXEMPT: '', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const statuses = [];
    for (const spoof of ['192.0.2.1', '', '192.0.2.3']) statuses.push((await via(t, { 'x-forwarded-for': [spoof, FLOODER] })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  test('When the proxy passes on a header that names no client (malformed, unknown), then the request counts against the proxy, never exempt', async () => {
    const t = await start({ PAIRWISE_TRUSTED_PROXIES: PROXY, PAIRWISE_RATE_LIMIT_EXEMPT: PROXY, PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const statuses = [];
    const unnamed: Record<string, string>[] = [{ forwarded: 'for="192.0.2.1' }, { 'x-forwarded-for': 'unknown' }, { forwarded: 'for=_hidden', 'x-forwarded-for': FLOODER }];
    for (const headers of unnamed) {
      statuses.push((await via(t, headers)).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect((await via(t, {})).status).toBe(200); // the proxy itself, exempt
    expect((await via(t, { 'x-forwarded-for': SHOPPER })).status).toBe(200);
  });
});
