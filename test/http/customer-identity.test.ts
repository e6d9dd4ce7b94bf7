// Shopper privacy (docs/api.md, "Security model"): with the public key, which anyone can read from a
// storefront page, a customerId counts only with proof (a customer token, or a Shopify app-proxy
// signature); without it the request still succeeds from its session alone, and a token that does
// not prove its customer is refused (401). Secret keys are trusted.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { customerToken, ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { storedEvents } from '../support/stored-events.js';
import { expectProblem } from '../support/problem.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
let t: TestService;
const token = (customerId: string) => customerToken(t.shop, customerId, NOW);
const recentlyViewed = (query: string, key?: string) => recommendations(t, `strategy=recently-viewed&limit=5&${query}`, key);

beforeAll(async () => {
  t = await startTestService({ clock: () => NOW });
  await putProducts(t, Array.from({ length: 12 }, (_, i) => wireProduct(String(i + 1))));
  // The victim's history, sent by the merchant's server (secret key: trusted as it is).
  await postEvents(t, [
    { type: 'view', productId: '7', sessionId: 'victim-s', customerId: 'victim' },
    { type: 'view', productId: '8', sessionId: 'victim-s', customerId: 'victim' },
  ], t.shop.secretKey);
});

afterAll(() => t.cleanup());

describe('customer identity', () => {
  test('When a public-key request names a customer without proof, then it gets nothing of that customer\'s history', async () => {
    // (The victim's views make 7 and 8 trending: they may come back as trending backfill, never as history.)
    const bare = await recentlyViewed('customerId=victim&sessionId=attacker');
    expect(bare.products.map((p) => p.strategy)).toEqual(Array(5).fill('trending'));
  });

  test('When a token does not prove the customer it comes with (another customer\'s, expired, tampered, another shop\'s), then 401 invalid_customer_token, never a silent downgrade', async () => {
    const expired = customerToken(t.shop, 'victim', NOW - 2 * 3_600_000); // minted for an hour, two hours ago
    for (const query of [`customerId=victim&customerToken=${token('attacker')}`, `customerToken=${expired}`, `customerToken=${token('victim').slice(0, -2)}xx`, `customerToken=${customerToken({ ...t.shop, shopId: 'other-shop' }, 'victim')}`]) {
      const res = await t.fetch(`/api/recommendations?strategy=recently-viewed&${query}`);
      await expectProblem(res, 401, 'invalid_customer_token');
    }
  });

  test('When the same request carries the customer\'s token, or comes with the secret key, then it is that customer\'s history', async () => {
    expect(ids(await recentlyViewed(`customerId=victim&customerToken=${token('victim')}`)).slice(0, 2)).toEqual(['8', '7']);
    expect(ids(await recentlyViewed(`customerToken=${token('victim')}`)).slice(0, 2)).toEqual(['8', '7']);
    expect(ids(await recentlyViewed('customerId=victim', t.shop.secretKey)).slice(0, 2)).toEqual(['8', '7']);
  });

  test('When a public key sends events for a customer without proof, then that customer\'s history is untouched and the session still counts', async () => {
    await postEvents(t, [{ type: 'view', productId: '3', sessionId: 'poison-s', customerId: 'victim' }]);
    const single = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '4', sessionId: 'poison-s', customerId: 'victim', customerToken: token('someone-else') }) });
    await expectProblem(single, 401, 'invalid_customer_token'); // refused, not stored without its customer
    const batch = (await postEvents(t, [
      { type: 'view', productId: '6', sessionId: 'poison-s', customerId: 'victim', customerToken: token('someone-else') },
      { type: 'view', productId: '2', sessionId: 'poison-s' },
    ])) as { accepted: number; rejected: number; results: { success: boolean; error?: { code: string } }[] };
    expect(batch).toMatchObject({ accepted: 1, rejected: 1 });
    expect(batch.results[0]!.error?.code).toBe('invalid_customer_token');
    expect(ids(await recentlyViewed('customerId=victim', t.shop.secretKey)).slice(0, 2)).toEqual(['8', '7']);
    expect(ids(await recentlyViewed('sessionId=poison-s')).slice(0, 2)).toEqual(['2', '3']);
  });

  test('When a public key sends an event with the customer\'s token, then it joins that customer\'s history at once, and the token is not stored', async () => {
    await postEvents(t, [{ type: 'view', productId: '5', sessionId: 'own-s', customerId: 'victim', customerToken: token('victim') }]);
    expect(ids(await recentlyViewed(`customerToken=${token('victim')}`)).slice(0, 3)).toEqual(['5', '8', '7']);
    const stored = storedEvents(t.service.dbs).map(({ event }) => event as unknown as Record<string, unknown>);
    expect(stored.some((e) => 'customerToken' in e)).toBe(false);
    expect(stored.filter((e) => e.customerId === 'victim').map((e) => e.productId)).toEqual(['7', '8', '5']);
  });

  test('When the shop has a Shopify app proxy, then its signed query names the logged-in customer and a tampered one names nobody', async () => {
    await t.service.shops.setAppProxySecret(t.shop.shopId, 'proxy-secret');
    const params: [string, string][] = [
      ['strategy', 'recently-viewed'], ['limit', '5'], ['shop', 'demo.myshopify.com'], ['logged_in_customer_id', 'victim'],
      ['path_prefix', '/apps/recs'], ['timestamp', String(NOW / 1000)],
    ];
    const message = params.map(([k, v]) => `${k}=${v}`).sort().join('');
    const signature = createHmac('sha256', 'proxy-secret').update(message).digest('hex');
    const query = new URLSearchParams([...params, ['signature', signature]]).toString();
    const signed = await recommendations(t, query);
    expect(ids(signed).slice(0, 3)).toEqual(['5', '8', '7']);
    expect(signed.products[0]!.strategy).toBe('recently-viewed');
    const tampered = await recommendations(t, query.replace('logged_in_customer_id=victim', 'logged_in_customer_id=other').replace('limit=5', 'limit=5&sessionId=x'));
    expect(tampered.products.map((p) => p.strategy)).toEqual(Array(5).fill('trending'));
  });
});
