// POST /api/events/batch: each event judged alone, per-event results by index, one commit.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { ANY_POSITION, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';
import { expectedFreshScore, wireScore } from '../support/trending.js';

const EVENT_ID = /^evt_[0-9A-HJKMNP-TV-Z]{26}$/;
const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('batch', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ clock: () => NOW });
    await putProducts(t, [wireProduct('1'), wireProduct('2'), wireProduct('3')]);
  });
  afterAll(() => t.cleanup());

  const post = (events: unknown[], headers: Record<string, string> = {}) =>
    t.fetch('/api/events/batch', { method: 'POST', body: JSON.stringify({ events }), headers });
  const applied = () => t.service.engines.get(t.shop.shopId).eventCount;

  test('When every event is valid, then success:true with one result per event, in order', async () => {
    const before = applied();
    const res = await post([
      { type: 'click', productId: '1', sessionId: 'b1' },
      { type: 'view', productId: '2', sessionId: 'b1' },
      { type: 'purchase', productId: '3', sessionId: 'b1' },
    ]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      success: true,
      accepted: 3,
      duplicates: 0,
      rejected: 0,
      results: [0, 1, 2].map((index) => ({ index, success: true, eventId: expect.stringMatching(EVENT_ID) })),
      position: ANY_POSITION,
    });
    expect(new Set(body.results.map((r: { eventId: string }) => r.eventId)).size).toBe(3);
    expect(applied()).toBe(before + 3);
  });

  test('When valid and invalid events are mixed, then the valid ones are stored and the invalid ones reported with pointers', async () => {
    const before = applied();
    const res = await post([
      { type: 'click', productId: '1', sessionId: 'mix' },
      { type: 'like', productId: '1', sessionId: 'mix' },
      { type: 'purchase', productId: '2', sessionId: 'mix' },
      { type: 'click', productId: '1' },
      'not an event',
      { type: 'click', productId: '1', sessionId: 'mix', timestamp: NOW + 86_400_000 },
    ]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, accepted: 2, duplicates: 0, rejected: 4 });
    expect(body.results).toHaveLength(6);
    expect(body.results.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(body.results[0]).toEqual({ index: 0, success: true, eventId: expect.stringMatching(EVENT_ID) });
    expect(body.results[1]).toEqual({ index: 1, success: false, error: { code: 'invalid_event', pointer: '/events/1/type', detail: expect.any(String) } });
    expect(body.results[2]).toEqual({ index: 2, success: true, eventId: expect.stringMatching(EVENT_ID) });
    expect(body.results[3].error).toMatchObject({ code: 'invalid_event', pointer: '/events/3/sessionId' });
    expect(body.results[4].error).toMatchObject({ code: 'invalid_event', pointer: '/events/4' });
    expect(body.results[5].error).toMatchObject({ code: 'invalid_event', pointer: '/events/5/timestamp' });
    expect(applied()).toBe(before + 2);
  });

  test('When one event of a batch has metadata nested 2,000 levels deep, then it alone is rejected with its pointer and the others are stored', async () => {
    const before = applied();
    const deep = `{"type":"click","productId":"1","sessionId":"deep","metadata":{"x":${'['.repeat(2000)}${']'.repeat(2000)}}}`;
    const body = `{"events":[{"type":"click","productId":"1","sessionId":"deep"},${deep},{"type":"view","productId":"2","sessionId":"deep"}]}`;

    const res = await t.fetch('/api/events/batch', { method: 'POST', body });

    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result).toMatchObject({ success: false, accepted: 2, duplicates: 0, rejected: 1 });
    expect(result.results[1]).toEqual({ index: 1, success: false, error: { code: 'invalid_event', pointer: '/events/1/metadata', detail: expect.any(String) } });
    expect(applied()).toBe(before + 2);
  });

  test('When every event is invalid, then 200 success:false, accepted 0 and nothing stored', async () => {
    const before = applied();
    const res = await post([{ type: 'click' }, { productId: '1', sessionId: 'x' }]);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: false, accepted: 0, duplicates: 0, rejected: 2 });
    expect(body.results.map((r: { error: { pointer: string } }) => r.error.pointer)).toEqual(['/events/0/productId', '/events/1/type']);
    expect(applied()).toBe(before);
  });

  test('When messageIds repeat within a batch and across batches, then duplicates are counted and share the first eventId', async () => {
    const before = applied();
    const first = await (await post([{ type: 'purchase', productId: '1', sessionId: 'd', messageId: 'batch-m1' }])).json();
    const firstId = first.results[0].eventId;
    const res = await post([
      { type: 'purchase', productId: '1', sessionId: 'd', messageId: 'batch-m1' },
      { type: 'purchase', productId: '2', sessionId: 'd', messageId: 'batch-m2' },
      { type: 'purchase', productId: '2', sessionId: 'd', messageId: 'batch-m2' },
    ]);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, accepted: 1, duplicates: 2, rejected: 0 });
    expect(body.results[0]).toEqual({ index: 0, success: true, eventId: firstId, duplicate: true });
    expect(body.results[1]).toEqual({ index: 1, success: true, eventId: expect.stringMatching(EVENT_ID) });
    expect(body.results[2]).toEqual({ index: 2, success: true, eventId: body.results[1].eventId, duplicate: true });
    expect(applied()).toBe(before + 2);
  });

  test('When a batch holds exactly 100 events, then all 100 are accepted', async () => {
    const before = applied();
    const events = Array.from({ length: 100 }, (_, i) => ({ type: 'impression', productId: '1', sessionId: `hundred-${i}` }));
    const body = await (await post(events)).json();
    expect(body).toMatchObject({ success: true, accepted: 100, rejected: 0 });
    expect(applied()).toBe(before + 100);
  });

  test('When the batch comes as text/plain (sendBeacon), then it is parsed as JSON and stored', async () => {
    const before = applied();
    const res = await post([{ type: 'click', productId: '2', sessionId: 'beacon' }], { 'content-type': 'text/plain;charset=UTF-8' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, accepted: 1 });
    expect(applied()).toBe(before + 1);
  });

  test('When a text/plain body is not JSON, then 400 invalid_json', async () => {
    const res = await t.fetch('/api/events/batch', { method: 'POST', body: 'events=1', headers: { 'content-type': 'text/plain' } });
    await expectProblem(res, 400, 'invalid_json');
  });

  test('When a batch is acknowledged, then the next answer reflects every accepted event', async () => {
    const local = await startTestService({ clock: () => NOW });
    try {
      await putProducts(local, [wireProduct('1'), wireProduct('2'), wireProduct('3')]);
      const res = await local.fetch('/api/events/batch', {
        method: 'POST',
        body: JSON.stringify({
          events: [
            { type: 'purchase', productId: '3', sessionId: 'r' },
            { type: 'bogus', productId: '1', sessionId: 'r' },
            { type: 'save', productId: '2', sessionId: 'r' },
          ],
        }),
      });
      expect((await res.json()).accepted).toBe(2);
      const body = await recommendations(local, 'strategy=trending');
      // The purchase (weight 6) and the save (weight 3) both count; the rejected event does not.
      expect(body.products.map((p) => [p.id, p.score])).toEqual([
        ['gid://shopify/Product/3', wireScore(expectedFreshScore(6))],
        ['gid://shopify/Product/2', wireScore(expectedFreshScore(3))],
        ['gid://shopify/Product/1', 0],
      ]);
    } finally {
      await local.cleanup();
    }
  });
});
