// The bound on new sessions (docs/api.md "Rate limits", new sessions): public-key events naming a
// sessionId the shop holds no state for are charged to the client's address, then the shop; past
// either they are refused with 429 too_many_new_sessions and not stored, while events of known
// sessions, the secret key and the events already accepted are untouched. The proxy is 127.0.0.1 and
// names the clients; time is a fake monotonic clock that moves only when told.
import { afterEach, describe, expect, test } from 'vitest';
import { fetchFrom, type PlainResponse } from '../support/from-address.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';

const PROXY = '127.0.0.1';
const FLOODER = '203.0.113.7';
const SHOPPER = '198.51.100.9';

describe('new sessions per client address and per shop', () => {
  const started: TestService[] = [];
  const clients: StreamClient[] = [];
  let now = 1_000;
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(perAddress: number, perShop: number): Promise<TestService> {
    now = 1_000;
    const t = await startTestService({
      env: {
        PAIRWISE_TRUSTED_PROXIES: PROXY,
        PAIRWISE_RATE_LIMIT_EXEMPT: '',
        PAIRWISE_NEW_SESSIONS_PER_ADDRESS_PER_MINUTE: String(perAddress),
        PAIRWISE_NEW_SESSIONS_PER_SHOP_PER_MINUTE: String(perShop),
      },
      monotonic: () => now,
    });
    started.push(t);
    await putProducts(t, [wireProduct('p1')]);
    return t;
  }

  function view(sessionId: string) {
    return { type: 'view', productId: 'p1', sessionId };
  }

  function send(t: TestService, client: string, body: unknown, path = '/api/events', key = t.shop.publicKey): Promise<PlainResponse> {
    return fetchFrom(t.url + path, PROXY, { method: 'POST', key, headers: { 'x-forwarded-for': client }, body: JSON.stringify(body) });
  }

  async function sessionsHeld(t: TestService): Promise<number> {
    const shop = (await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { counts: { sessions: number } };
    return shop.counts.sessions;
  }

  test('When one address creates more new sessions a minute than its bound, then the rest get 429 too_many_new_sessions and are not stored, while its known sessions and other addresses go on', async () => {
    const t = await start(3, 1000);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(t, FLOODER, view(`flood-${i}`))).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);

    const refused = await send(t, FLOODER, view('flood-9'));
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.headers['retry-after']).toBe('20');
    expect(refused.headers['ratelimit-policy']).toBe('"address-new-sessions";q=3;w=60;pairwise-burst=3');
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429, code: 'too_many_new_sessions', detail: 'this client address may make 3 new sessions a minute (bursts of 3); retry after 20 s' });

    // A session the shop holds is not new: never charged. Another address has its own bound.
    for (let i = 0; i < 3; i++) expect((await send(t, FLOODER, view('flood-0'))).status).toBe(200);
    expect((await send(t, SHOPPER, view('shopper-1'))).status).toBe(200);
    expect(await sessionsHeld(t)).toBe(4);

    // A minute's bound refills at its rate: one new session every 20 s.
    now += 20_000;
    expect((await send(t, FLOODER, view('flood-10'))).status).toBe(200);
    expect((await send(t, FLOODER, view('flood-11'))).status).toBe(429);
    expect(await sessionsHeld(t)).toBe(5);
  });

  test('When a batch brings more new sessions than the bound allows, then those events are refused by index and the others stored, each new session charged once', async () => {
    const t = await start(3, 1000);
    const res = await send(t, FLOODER, { events: [view('a'), view('a'), view('b'), view('c'), view('d'), view('a')] }, '/api/events/batch');
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body) as { accepted: number; rejected: number; results: { success: boolean; error?: unknown }[] };
    expect(body).toMatchObject({ success: false, accepted: 5, rejected: 1 });
    expect(body.results.map((r) => r.success)).toEqual([true, true, true, true, false, true]);
    expect(body.results[4]!.error).toEqual({ code: 'too_many_new_sessions', pointer: '/events/4/sessionId', detail: 'this client address may make 3 new sessions a minute (bursts of 3); retry after 20 s' });
    expect(await sessionsHeld(t)).toBe(3);
  });

  test('When many addresses create sessions, then the shop’s bound refuses past it, and a session refused by its address takes nothing from the shop’s', async () => {
    const t = await start(2, 5);
    // The flooder's third and fourth are refused by its address: the shop still has 5 - 2 = 3.
    const flood = [];
    for (let i = 0; i < 4; i++) flood.push((await send(t, FLOODER, view(`flood-${i}`))).status);
    expect(flood).toEqual([200, 200, 429, 429]);
    const others = [];
    for (let i = 0; i < 4; i++) others.push(await send(t, `198.51.100.${10 + i}`, view(`shopper-${i}`)));
    expect(others.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(others[3]!.headers['ratelimit-policy']).toBe('"shop-new-sessions";q=5;w=60;pairwise-burst=5');
    expect(JSON.parse(others[3]!.body)).toMatchObject({ code: 'too_many_new_sessions' });
  });

  test('When the secret key sends events of many new sessions, then none is refused', async () => {
    const t = await start(1, 1);
    const res = await send(t, FLOODER, { events: Array.from({ length: 50 }, (_, i) => view(`server-${i}`)) }, '/api/events/batch', t.shop.secretKey);
    expect(JSON.parse(res.body)).toMatchObject({ success: true, accepted: 50, rejected: 0 });
    expect(await sessionsHeld(t)).toBe(50);
  });

  test('When a WebSocket client creates sessions past the bound, then the event op gets an error frame with too_many_new_sessions and its wait in ms', async () => {
    const t = await start(1, 1000);
    const client = await StreamClient.open(t.url, t.shop.publicKey, { headers: { 'x-forwarded-for': FLOODER } });
    clients.push(client);
    expect(await client.request({ op: 'event', ref: 'a', event: view('ws-1') })).toMatchObject({ op: 'ack', ref: 'a' });
    expect(await client.request({ op: 'event', ref: 'b', event: view('ws-2') })).toMatchObject({
      op: 'error',
      ref: 'b',
      error: { code: 'too_many_new_sessions', detail: 'this client address may make 1 new sessions a minute (bursts of 1); retry after 60 s', retryAfterMs: 60_000 },
    });
    const acks = await client.request({ op: 'events', ref: 'c', events: [view('ws-1'), view('ws-3')] });
    expect(acks).toMatchObject({ op: 'acks', ref: 'c', accepted: 1, rejected: 1 });
    expect(acks.results[1].error).toMatchObject({ code: 'too_many_new_sessions', pointer: '/events/1/sessionId' });
    expect(await sessionsHeld(t)).toBe(1);
  });
});
