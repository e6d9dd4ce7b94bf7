// POST /api/events: the ack shape, optional timestamps, the view extension and messageId dedup.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { ANY_POSITION, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { expectedFreshScore, expectedTrendingScore, expectedTrendingScoreOf, trendingInputs, wireScore } from '../support/trending.js';
import { storedEvents } from '../support/stored-events.js';

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('events', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ clock: () => NOW });
    await putProducts(t, [wireProduct('1'), wireProduct('2'), wireProduct('3')]);
  });
  afterAll(() => t.cleanup());

  const post = (body: unknown) => t.fetch('/api/events', { method: 'POST', body: JSON.stringify(body) });
  const applied = () => t.service.engines.get(t.shop.shopId).eventCount;
  const trendingScore = async (id: string) => {
    const body = await recommendations(t, 'strategy=trending&limit=24');
    return body.products.find((p) => p.id === `gid://shopify/Product/${id}`)!.score;
  };

  test('When a valid event is posted, then 200 {success:true, eventId:evt_<ULID>} and it is applied', async () => {
    const before = applied();
    const res = await post({ type: 'click', productId: '1', sessionId: 's1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['eventId', 'position', 'success']);
    expect(body.success).toBe(true);
    expect(body.eventId).toMatch(EVENT_ID);
    expect(applied()).toBe(before + 1);
  });

  test('When two events are posted, then their eventIds differ and sort in arrival order', async () => {
    const a = await (await post({ type: 'impression', productId: '1', sessionId: 's1' })).json();
    const b = await (await post({ type: 'impression', productId: '2', sessionId: 's1' })).json();
    expect(a.eventId).not.toBe(b.eventId);
    expect(a.eventId < b.eventId).toBe(true);
  });

  test.each(['impression', 'click', 'add_to_cart', 'purchase', 'dismiss', 'save', 'view'])('When the event type is %s, then it is accepted', async (type) => {
    const res = await post({ type, productId: '3', sessionId: `type-${type}` });
    expect(res.status).toBe(200);
    expect((await res.json()).eventId).toMatch(EVENT_ID);
  });

  test('When every optional field is given (gid product, customer, widget, metadata), then it is accepted', async () => {
    const res = await post({
      type: 'add_to_cart',
      productId: 'gid://shopify/Product/2',
      sessionId: 's2',
      customerId: 'c2',
      widgetId: 'pdp-carousel',
      metadata: { orderId: 'o-1', position: 3 },
      messageId: 'full-1',
    });
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(true);
  });

  test('When Content-Type carries a charset, then the event is accepted', async () => {
    const res = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'click', productId: '1', sessionId: 'cs' }), headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(200);
  });

  test('When nullable optional fields are null, then the event is accepted', async () => {
    const res = await post({ type: 'click', productId: '2', sessionId: 's3', customerId: null, widgetId: null, metadata: null, messageId: null, timestamp: null });
    expect(res.status).toBe(200);
  });

  describe('timestamp', () => {
    test('When timestamp is ISO 8601 in the past, then it is accepted and used as the event time', async () => {
      const local = await startTestService({ clock: () => NOW });
      try {
        await putProducts(local, [wireProduct('1')]);
        const twoDaysAgo = new Date(NOW - 2 * 86_400_000).toISOString();
        const res = await local.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'purchase', productId: '1', sessionId: 'ts', timestamp: twoDaysAgo }) });
        expect(res.status).toBe(200);
        // Scored as a purchase two days old (recent 6·2^-1 = 3), not as one made now.
        const body = await recommendations(local, 'strategy=trending');
        expect(body.products[0]!.score).toBe(wireScore(expectedTrendingScoreOf([{ weight: 6, ageMs: 2 * 86_400_000 }])));
        expect(body.products[0]!.score).not.toBe(wireScore(expectedFreshScore(6)));
      } finally {
        await local.cleanup();
      }
    });

    test('When timestamp is epoch milliseconds, then it is accepted', async () => {
      const res = await post({ type: 'click', productId: '1', sessionId: 'ts2', timestamp: NOW - 60_000 });
      expect(res.status).toBe(200);
    });

    test('When timestamp is an ISO date with an offset, then it is accepted', async () => {
      const res = await post({ type: 'click', productId: '1', sessionId: 'ts3', timestamp: '2025-06-01T13:30:00+02:00' });
      expect(res.status).toBe(200);
    });

    test.each([
      ['an hour in the future (epoch ms)', NOW + 3_600_000],
      ['an hour in the future (ISO)', new Date(NOW + 3_600_000).toISOString()],
      ['before 2000', '1999-12-31T23:59:59Z'],
      ['without a time zone', '2025-06-01T10:00:00'],
    ])('When timestamp is %s, then 400 invalid_event at /timestamp and nothing is applied', async (_name, timestamp) => {
      const before = applied();
      const res = await post({ type: 'click', productId: '1', sessionId: 'ts4', timestamp });
      await expectProblem(res, 400, 'invalid_event', '/timestamp');
      expect(applied()).toBe(before);
    });
  });

  describe('messageId dedup', () => {
    test('When a public key sends a messageId first, then the merchant\'s server (secret key) still stores its own event under it, and each key\'s repeats are its own duplicates', async () => {
      const messageId = 'order-5001-line-1';
      const shadow = await (await post({ type: 'view', productId: '3', sessionId: 'attacker', messageId })).json();
      const count = applied();
      const server = await t.fetch('/api/events', { method: 'POST', key: t.shop.secretKey, body: JSON.stringify({ type: 'purchase', productId: '3', sessionId: 'buyer', messageId }) });
      const purchase = await server.json();
      expect(purchase).toEqual({ success: true, eventId: expect.stringMatching(EVENT_ID), position: ANY_POSITION }); // stored, not a duplicate
      expect(purchase.eventId).not.toBe(shadow.eventId);
      expect(applied()).toBe(count + 1);
      const again = await (await t.fetch('/api/events', { method: 'POST', key: t.shop.secretKey, body: JSON.stringify({ type: 'purchase', productId: '3', sessionId: 'buyer', messageId }) })).json();
      expect(again).toMatchObject({ eventId: purchase.eventId, duplicate: true });
      expect(await (await post({ type: 'view', productId: '3', sessionId: 'attacker', messageId })).json()).toMatchObject({ eventId: shadow.eventId, duplicate: true });
    });

    test('When a messageId repeats, then the same eventId comes back with duplicate:true and the model does not change', async () => {
      const event = { type: 'purchase', productId: '3', sessionId: 'dup', messageId: 'msg-dup-1' };
      const first = await (await post(event)).json();
      expect(first).toEqual({ success: true, eventId: expect.stringMatching(EVENT_ID), position: ANY_POSITION });
      const score = await trendingScore('3');
      const count = applied();

      const again = await post(event);
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual({ success: true, eventId: first.eventId, duplicate: true, position: ANY_POSITION });
      expect(await trendingScore('3')).toBe(score);
      expect(applied()).toBe(count);
    });

    test('When a messageId repeats with a different body, then the first event stands and nothing changes', async () => {
      const first = await (await post({ type: 'view', productId: '1', sessionId: 'dup2', messageId: 'msg-dup-2' })).json();
      const score = await trendingScore('2');
      const again = await (await post({ type: 'purchase', productId: '2', sessionId: 'dup2', messageId: 'msg-dup-2' })).json();
      expect(again).toEqual({ success: true, eventId: first.eventId, duplicate: true, position: ANY_POSITION });
      expect(await trendingScore('2')).toBe(score);
    });

    test('When 20 copies of one messageId arrive concurrently, then one event is stored and all share its eventId', async () => {
      const before = applied();
      const engine = t.service.engines.get(t.shop.shopId);
      const { recent, longTerm } = trendingInputs(engine, '2', NOW);
      const event = { type: 'purchase', productId: '2', sessionId: 'race', messageId: 'msg-race-1' };
      const answers = await Promise.all(Array.from({ length: 20 }, async () => (await post(event)).json()));
      const eventIds = new Set(answers.map((a) => a.eventId));
      expect(eventIds.size).toBe(1);
      expect(answers.filter((a) => a.duplicate === true)).toHaveLength(19);
      expect(answers.every((a) => a.success === true)).toBe(true);
      expect(applied()).toBe(before + 1);
      // Exactly one purchase (weight 6, now) was added to the model.
      expect(await trendingScore('2')).toBe(wireScore(expectedTrendingScore(recent + 6, longTerm + 6)));
      const stored = storedEvents(t.service.dbs, t.shop.shopId).filter(({ event }) => event.messageId === 'msg-race-1');
      expect(stored).toHaveLength(1);
    });

    test('When a messageId repeats after the 7-day window, then it is stored as a new event', async () => {
      let now = NOW;
      const local = await startTestService({ clock: () => now });
      try {
        const event = JSON.stringify({ type: 'click', productId: '1', sessionId: 'w', messageId: 'weekly' });
        const first = await (await local.fetch('/api/events', { method: 'POST', body: event })).json();
        now += 6 * 86_400_000;
        expect(await (await local.fetch('/api/events', { method: 'POST', body: event })).json()).toEqual({ success: true, eventId: first.eventId, duplicate: true, position: ANY_POSITION });
        now += 2 * 86_400_000;
        const late = await (await local.fetch('/api/events', { method: 'POST', body: event })).json();
        expect(late).toEqual({ success: true, eventId: expect.stringMatching(EVENT_ID), position: ANY_POSITION });
        expect(late.eventId).not.toBe(first.eventId);
        expect(local.service.engines.get(local.shop.shopId).eventCount).toBe(2);
      } finally {
        await local.cleanup();
      }
    });

    test('When two events have different messageIds, then both are stored', async () => {
      const a = await (await post({ type: 'click', productId: '1', sessionId: 'm', messageId: 'msg-a' })).json();
      const b = await (await post({ type: 'click', productId: '1', sessionId: 'm', messageId: 'msg-b' })).json();
      expect(a.eventId).not.toBe(b.eventId);
      expect(a.duplicate).toBeUndefined();
      expect(b.duplicate).toBeUndefined();
    });
  });

  describe('catalog-less products', () => {
    test('When an event names a product not in the catalog, then it is accepted and counts once the product appears', async () => {
      const local = await startTestService({ clock: () => NOW });
      try {
        await putProducts(local, [wireProduct('1')]);
        const res = await local.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'purchase', productId: '77', sessionId: 'x' }) });
        expect(res.status).toBe(200);
        expect((await recommendations(local, 'strategy=trending')).products.map((p) => p.id)).toEqual(['gid://shopify/Product/1']);
        await putProducts(local, [wireProduct('77')]);
        const body = await recommendations(local, 'strategy=trending');
        expect(body.products.map((p) => [p.id, p.score])).toEqual([
          ['gid://shopify/Product/77', wireScore(expectedFreshScore(6))],
          ['gid://shopify/Product/1', 0],
        ]);
      } finally {
        await local.cleanup();
      }
    });
  });
});
