// A customer whose shopper slot was evicted (a small shopper table, flooded with other customers)
// is rebuilt from their indexed events on their next request or event: their answers are the ones
// they had before the eviction.
import { afterEach, describe, expect, test } from 'vitest';
import { CUSTOMER_SPACE } from '../../src/engine/shopper-keys.js';
import { postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
/** Shoppers the engine holds: a flood of this many others evicts anyone. */
const CAPACITY = 6;

describe('evicted customers', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function arranged(): Promise<TestService> {
    const t = await startTestService({ clock: () => NOW, engine: { maxCustomers: CAPACITY, maxSessions: CAPACITY }, env: { PAIRWISE_ANSWER_CACHE_MB: '0' } });
    started.push(t);
    await putProducts(t, Array.from({ length: 12 }, (_, i) => wireProduct(String(i + 1))));
    // Baskets that pair products, so that personalized has neighbours to draw from.
    await postEvents(t, [1, 2, 3].flatMap((n) => [
      { type: 'purchase', productId: '1', sessionId: `b${n}`, metadata: { orderId: `o${n}` } },
      { type: 'purchase', productId: String(3 + n), sessionId: `b${n}`, metadata: { orderId: `o${n}` } },
    ]), t.shop.secretKey);
    await postEvents(t, [
      { type: 'view', productId: '1', sessionId: 'loyal-s', customerId: 'loyal' },
      { type: 'add_to_cart', productId: '2', sessionId: 'loyal-s', customerId: 'loyal' },
      { type: 'purchase', productId: '3', sessionId: 'loyal-s', customerId: 'loyal' },
      { type: 'view', productId: '9', sessionId: 'loyal-s', customerId: 'loyal' },
    ], t.shop.secretKey);
    return t;
  }

  const answersOf = async (t: TestService, customerId: string) =>
    Promise.all(['personalized', 'recently-viewed', 'trending'].map((strategy) => recommendations(t, `strategy=${strategy}&customerId=${customerId}&limit=6`, t.shop.secretKey)));

  /** Other customers, each dismissing a product (their own state only: no shared count moves). */
  async function flood(t: TestService, count: number): Promise<void> {
    await postEvents(t, Array.from({ length: count }, (_, i) => ({ type: 'dismiss', productId: '12', sessionId: `flood-s${i}`, customerId: `flood-${i}` })), t.shop.secretKey);
  }

  const slotOf = (t: TestService, customerId: string) => t.service.engines.get(t.shop.shopId).shoppers.slotIn(CUSTOMER_SPACE, customerId);

  test('When a logged-in customer is evicted by a flood of other customers, then their next answers are the ones they had before', async () => {
    const t = await arranged();
    const before = await answersOf(t, 'loyal');
    expect(before[0]!.meta.modelLevel).toBe(3);
    await flood(t, CAPACITY * 3);
    expect(slotOf(t, 'loyal')).toBe(-1);
    expect(await answersOf(t, 'loyal')).toEqual(before);
  });

  test('When an evicted customer sends an event, then it joins the history the log holds for them', async () => {
    const t = await arranged();
    await flood(t, CAPACITY * 3);
    expect(slotOf(t, 'loyal')).toBe(-1);
    await postEvents(t, [{ type: 'view', productId: '10', sessionId: 'loyal-s2', customerId: 'loyal' }], t.shop.secretKey);
    const recent = await recommendations(t, 'strategy=recently-viewed&customerId=loyal&limit=6', t.shop.secretKey);
    expect(recent.products.filter((p) => p.strategy === 'recently-viewed').map((p) => p.id.replace(/^.*\//, ''))).toEqual(['10', '9', '1']);
  });
});
