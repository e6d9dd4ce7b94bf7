// Rate limits on GET /api/stream: each operation is charged to its connection, its key and its
// address (the upgrade to the address and key like any request); a refused operation gets an error
// frame with rate_limited and the wait in ms, and a connection that keeps sending far past its limit
// is closed with 1008. Clients come from chosen loopback addresses; time is a fake monotonic clock.
import { afterEach, describe, expect, test } from 'vitest';
import { generateKey } from '../../src/store/shop-store.js';
import { fetchFrom } from '../support/from-address.js';
import { startRateLimited, startTestService, type TestService } from '../support/service.js';
import { StreamClient, type Message } from './stream-client.js';

describe('stream rate limits', () => {
  const started: TestService[] = [];
  const clients: StreamClient[] = [];
  let now = 1_000;
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(env: Record<string, string>): Promise<TestService> {
    now = 1_000;
    const t = await startRateLimited(env, () => now);
    started.push(t);
    return t;
  }

  async function open(t: TestService, from: string, key = t.shop.publicKey, binary = false): Promise<StreamClient> {
    const client = await StreamClient.open(t.url, key, { localAddress: from, binary });
    clients.push(client);
    return client;
  }

  /** The replies to `count` pings sent at once, in ref order. */
  async function pings(client: StreamClient, count: number, prefix: string): Promise<Message[]> {
    const refs = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
    for (const ref of refs) client.send({ op: 'ping', ref });
    return Promise.all(refs.map((ref) => client.next((m) => m.ref === ref)));
  }

  test('When a connection sends past its own limit, then those operations get rate_limited with a retry hint in ms, and later ones pass', async () => {
    const t = await start({ PAIRWISE_RATE_WS_OPS_PER_SECOND: '10', PAIRWISE_RATE_WS_OPS_BURST: '3' });
    const client = await open(t, '127.0.0.2');

    const replies = await pings(client, 5, 'a');
    expect(replies.map((m) => m.op)).toEqual(['pong', 'pong', 'pong', 'error', 'error']);
    expect(replies[3]).toEqual({
      op: 'error',
      ref: 'a3',
      error: { code: 'rate_limited', detail: 'this connection may make 10 operations and events a second (bursts of 3)', retryAfterMs: 100 },
      __binary: false,
      __at: expect.any(Number),
    });

    now += 100;
    expect((await pings(client, 2, 'b')).map((m) => m.op)).toEqual(['pong', 'error']);
    expect(t.service.stream.stats().connections).toBe(1);
  });

  test('When an events op carries several events, then it costs the connection and its address one token per event', async () => {
    const t = await start({ PAIRWISE_RATE_WS_OPS_PER_SECOND: '10', PAIRWISE_RATE_WS_OPS_BURST: '5', PAIRWISE_RATE_ADDRESS_PER_SECOND: '0' });
    const client = await open(t, '127.0.0.2');
    const events = Array.from({ length: 5 }, (_, i) => ({ type: 'view', productId: String(i), sessionId: 's' }));

    expect(await client.request({ op: 'events', ref: 'e', events })).toMatchObject({ op: 'acks', ref: 'e', accepted: 5 });
    const refused = await client.request({ op: 'ping', ref: 'p' });

    expect(refused).toMatchObject({ op: 'error', ref: 'p', error: { code: 'rate_limited', retryAfterMs: 100 } });
    // Over the address bucket too (a second connection, so its own bucket is full).
    const u = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '8' });
    const other = await open(u, '127.0.0.2'); // 1 of 8
    expect(await other.request({ op: 'events', ref: 'e', events })).toMatchObject({ op: 'acks', accepted: 5 });
    expect((await pings(other, 3, 'q')).map((m) => m.op)).toEqual(['pong', 'pong', 'error']);
  });

  test('When a binary (msgpack) client is refused, then the error frame is msgpack too', async () => {
    const t = await start({ PAIRWISE_RATE_WS_OPS_PER_SECOND: '1', PAIRWISE_RATE_WS_OPS_BURST: '1' });
    const client = await open(t, '127.0.0.2', t.shop.publicKey, true);
    const replies = await pings(client, 2, 'm');
    expect(replies[1]).toMatchObject({ op: 'error', ref: 'm1', error: { code: 'rate_limited', retryAfterMs: 1000 }, __binary: true });
  });

  test('When a connection keeps sending far past its limit, then it is closed with 1008 and other connections go on', async () => {
    const t = await start({ PAIRWISE_RATE_WS_OPS_PER_SECOND: '5', PAIRWISE_RATE_WS_OPS_BURST: '5' });
    const flooder = await open(t, '127.0.0.2');
    const other = await open(t, '127.0.0.3');

    for (let i = 0; i < 50; i++) flooder.send({ op: 'ping', ref: i });
    const closed = await flooder.closed;

    expect(closed).toEqual({ code: 1008, reason: 'rate limit exceeded' });
    // 5 taken, 5 refused with a hint, the 11th refusal closed it.
    expect(flooder.all((m) => m.op === 'pong')).toHaveLength(5);
    expect(flooder.all((m) => m.op === 'error' && m.error.code === 'rate_limited')).toHaveLength(5);
    expect(await other.request({ op: 'ping', ref: 'ok' })).toMatchObject({ op: 'pong', ref: 'ok' });
  });

  test("When one shop's connections use up its key's bucket, then they are refused while another shop's connection is served", async () => {
    const t = await start({ PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: '1', PAIRWISE_RATE_PUBLIC_KEY_BURST: '6', PAIRWISE_RATE_ADDRESS_PER_SECOND: '0' });
    const b = { publicKey: generateKey('public') };
    await t.service.shops.ensureShop('shop-b');
    await t.service.shops.addKey('shop-b', b.publicKey);
    const first = await open(t, '127.0.0.2'); // the upgrades take 1 + 1 of the 6
    const second = await open(t, '127.0.0.3');
    const shopB = await open(t, '127.0.0.2', b.publicKey);

    const replies = [...(await pings(first, 3, 'f')), ...(await pings(second, 3, 's'))];
    expect(replies.map((m) => m.op)).toEqual(['pong', 'pong', 'pong', 'pong', 'error', 'error']);
    expect(replies[5]!.error.detail).toMatch(/^this public key may make 1 requests/);
    // Over HTTP too: the key's bucket is one.
    expect((await fetchFrom(t.url + '/api/recommendations', '127.0.0.4', { key: t.shop.publicKey })).status).toBe(429);
    expect((await pings(shopB, 3, 'b')).map((m) => m.op)).toEqual(['pong', 'pong', 'pong']);
  });

  test("When an address's bucket is empty, then its upgrade is refused with 429 and the rate-limit fields, and its operations are refused", async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '3' });
    const client = await open(t, '127.0.0.2'); // 1 of 3

    expect((await pings(client, 3, 'p')).map((m) => m.op)).toEqual(['pong', 'pong', 'error']);
    const refusal = await StreamClient.refusal(t.url, t.shop.publicKey, {}, '127.0.0.2');
    expect(refusal.status).toBe(429);
    expect(refusal.body).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refusal.headers).toMatchObject({ 'retry-after': '1', ratelimit: '"address";r=0;t=1' });
    await open(t, '127.0.0.3');
  });

  test("When a connection's operations are refused by its address bucket, then they take nothing from its key's bucket", async () => {
    const t = await start({ PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '3', PAIRWISE_RATE_PUBLIC_KEY_PER_SECOND: '1', PAIRWISE_RATE_PUBLIC_KEY_BURST: '8' });
    const flooder = await open(t, '127.0.0.2'); // address 1 of 3, key 1 of 8

    const replies = await pings(flooder, 10, 'f');
    expect(replies.map((m) => m.op)).toEqual(['pong', 'pong', ...Array<string>(8).fill('error')]);
    expect(replies[9]!.error.detail).toMatch(/^this client address may make 1 requests/);
    // The key has given 3 of its 8: another shopper's upgrade and operations still pass.
    const shopper = await open(t, '127.0.0.3');
    expect((await pings(shopper, 2, 's')).map((m) => m.op)).toEqual(['pong', 'pong']);
  });

  test('When connections come through a trusted proxy, then each counts against the address it forwards for', async () => {
    const t = await start({ PAIRWISE_TRUSTED_PROXIES: '127.0.0.1', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '2' });
    const viaProxy = async (client: string) => {
      const conn = await StreamClient.open(t.url, t.shop.publicKey, { localAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
      clients.push(conn);
      return conn;
    };
    const flooder = await viaProxy('203.0.113.7');
    expect((await pings(flooder, 3, 'f')).map((m) => m.op)).toEqual(['pong', 'error', 'error']);
    const shopper = await viaProxy('198.51.100.9');
    expect((await pings(shopper, 1, 's')).map((m) => m.op)).toEqual(['pong']);
  });

  test('When the client is exempt (loopback, the default), then its operations are never limited', async () => {
    const t = await startTestService({ env: { PAIRWISE_RATE_WS_OPS_PER_SECOND: '1', PAIRWISE_RATE_WS_OPS_BURST: '1' }, monotonic: () => now });
    started.push(t);
    const client = await open(t, '127.0.0.2');
    expect((await pings(client, 20, 'x')).every((m) => m.op === 'pong')).toBe(true);
  });
});
