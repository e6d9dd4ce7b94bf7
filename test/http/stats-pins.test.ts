// Pins in the statistics: events about an item a rule pinned (metadata.ruleId, as the widget sends
// it), and the clicks and conversions that follow them, are split out of each strategy's numbers.
import { afterEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('statistics of pinned items', () => {
  let t: TestService;
  afterEach(async () => {
    await t.cleanup();
  });

  test('When shoppers click and buy a pinned item and an organic one, then the strategy group splits pins from organic items, and a restart keeps the split', async () => {
    t = await startTestService({ clock: () => NOW });
    await putProducts(t, ['p1', 'p2', 'p3'].map((id) => wireProduct(id, { price: '10.00' })));
    await postEvents(t, [{ type: 'purchase', productId: 'p1', sessionId: 'warm' }]);
    const put = await t.fetch('/api/rules/promo', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ then: { pin: [{ productId: 'p3', position: 1 }] } }) });
    expect(put.status).toBe(201);
    const answer = (await (await t.fetch('/api/recommendations?strategy=trending&limit=3')).json()) as { products: { id: string; ruleId?: string }[]; meta: { recId: string } };
    expect(answer.products[0]).toMatchObject({ id: 'gid://shopify/Product/p3', ruleId: 'promo' });
    const recId = answer.meta.recId;

    await postEvents(t, [
      // s1 is shown the pin and clicks it from memory (no recId), then buys it (last click: the pin's).
      { type: 'impression', productId: 'p3', sessionId: 's1', widgetId: 'home', recId, metadata: { ruleId: 'promo' } },
      { type: 'impression', productId: 'p1', sessionId: 's1', widgetId: 'home', recId },
      { type: 'click', productId: 'p3', sessionId: 's1', widgetId: 'home' },
      { type: 'purchase', productId: 'p3', sessionId: 's1' },
      // s2 clicks the organic item with the recId and buys it twice over (two orders).
      { type: 'click', productId: 'p1', sessionId: 's2', widgetId: 'home', recId },
      { type: 'purchase', productId: 'p1', sessionId: 's2', metadata: { orderId: 'o1' } },
      { type: 'purchase', productId: 'p1', sessionId: 's2', metadata: { orderId: 'o2' } },
    ]);

    const read = async (s: TestService) => {
      const res = await s.fetch('/api/stats?groupBy=strategy', { key: s.shop.secretKey });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { groups: { key: string; clicks: number; revenue: number; pinned: Record<string, number>; organic: Record<string, number> }[] };
      return body.groups.find((g) => g.key === 'trending')!;
    };
    const trending = await read(t);
    expect(trending).toMatchObject({ impressions: 2, clicks: 2, orders: 3, revenue: 30 });
    expect(trending.pinned).toMatchObject({ impressions: 1, clicks: 1, orders: 1, revenue: 10 });
    expect(trending.organic).toMatchObject({ impressions: 1, clicks: 1, orders: 2, revenue: 20 });

    await t.stop();
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW });
    try {
      expect(await read(again)).toEqual(trending);
    } finally {
      await again.stop();
    }
  });
});
