// One client cannot buy popularity: each session counts a bounded weight per product and day in
// trending and collection-popular (engine/shopper-tally.ts), through the real server.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('popularity caps', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ clock: () => NOW });
    await putProducts(t, [wireProduct('1', { collections: ['k'] }), wireProduct('2', { collections: ['k'] }), wireProduct('3', { collections: ['other'] })]);
    // Product 1: 200 views from one session; product 2: one view from each of 20 sessions.
    const flood = Array.from({ length: 200 }, () => ({ type: 'view', productId: '1', sessionId: 'flooder' }));
    for (let i = 0; i < flood.length; i += 50) await postEvents(t, flood.slice(i, i + 50));
    await postEvents(t, Array.from({ length: 20 }, (_, i) => ({ type: 'view', productId: '2', sessionId: `visitor-${i}` })));
  });
  afterAll(() => t.cleanup());

  test('When one session views a product 200 times and 20 sessions view another once each, then trending ranks the one 20 sessions viewed first', async () => {
    expect(ids(await recommendations(t, 'strategy=trending&limit=3'))).toEqual(['2', '1', '3']);
  });

  test('When the same happens within a collection, then collection-popular ranks the one 20 sessions viewed first', async () => {
    const body = await recommendations(t, 'strategy=collection-popular&collectionId=k&limit=2');
    expect(ids(body)).toEqual(['2', '1']);
    expect(body.products.map((p) => p.strategy)).toEqual(['collection-popular', 'collection-popular']);
  });

  test('When the flooding session asks for what it viewed, then all its views are still its own history', async () => {
    expect(ids(await recommendations(t, 'strategy=recently-viewed&sessionId=flooder&limit=1'))).toEqual(['1']);
  });
});
