// Dashboard sign-in attempts have a rate limit of their own, per client address, and never spend that
// address's budget for the storefront API (shoppers behind one NAT or proxy share it). Requests come
// from chosen loopback addresses with loopback not exempt.
import { afterEach, describe, expect, test } from 'vitest';
import { fetchFrom, type PlainResponse } from '../support/from-address.js';
import { startRateLimited, startTestService, type TestService } from '../support/service.js';

const RECS = '/api/recommendations?strategy=trending';

describe('dashboard sign-in limits', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  function signIn(t: TestService, from: string, key: string): Promise<PlainResponse> {
    return fetchFrom(`${t.url}/dashboard/sign-in`, from, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.url },
      body: new URLSearchParams({ key }).toString(),
    });
  }

  test('When an address posts a bogus key to the sign-in on the real clocks, then its storefront requests are still answered', async () => {
    const t = await startTestService({ env: { PAIRWISE_RATE_LIMIT_EXEMPT: '' } });
    started.push(t);
    const get = () => fetchFrom(t.url + RECS, '127.0.0.2', { key: t.shop.publicKey });

    expect((await get()).status).toBe(200);
    expect((await signIn(t, '127.0.0.2', 'bogus')).status).toBe(401);
    const after = await get();

    expect(after.headers['retry-after']).toBeUndefined();
    expect(after.status).toBe(200);
  });

  test('When an address tries more sign-ins than its bound, then it gets 429 with Retry-After, and its storefront budget is untouched', async () => {
    let now = 1_000;
    const t = await startRateLimited(
      { PAIRWISE_SIGN_INS_PER_ADDRESS_PER_MINUTE: '3', PAIRWISE_RATE_ADDRESS_PER_SECOND: '1', PAIRWISE_RATE_ADDRESS_BURST: '1' },
      () => now,
    );
    started.push(t);

    const tries = [];
    for (let i = 0; i < 4; i++) tries.push(await signIn(t, '127.0.0.3', `sk_guess${i}`));

    expect(tries.map((res) => res.status)).toEqual([401, 401, 401, 429]);
    expect(tries[3]!.headers['retry-after']).toBe('20');
    expect(tries[3]!.headers['ratelimit-policy']).toBe('"address-sign-ins";q=3;w=60;pairwise-burst=3');
    expect(JSON.parse(tries[3]!.body)).toMatchObject({ code: 'rate_limited' });
    // The address's one storefront token is still there; another address may still sign in.
    expect((await fetchFrom(t.url + RECS, '127.0.0.3', { key: t.shop.publicKey })).status).toBe(200);
    expect((await signIn(t, '127.0.0.4', t.shop.secretKey)).status).toBe(303);

    now += 20_000; // one attempt back
    expect((await signIn(t, '127.0.0.3', t.shop.secretKey)).status).toBe(303);
    expect((await signIn(t, '127.0.0.3', t.shop.secretKey)).status).toBe(429);
  });
});
