// Hostile input through the public API: a public key is visible to anyone, so whatever it can send
// must leave the service's memory bounded, its answers for real products unchanged, and a restart working.
import { afterEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const QUERIES = ['strategy=trending&limit=24', 'productId=1', 'strategy=similar&productId=2', 'collectionId=c1', 'strategy=recently-viewed&sessionId=s1'];

/** Every query's answer (recommendations() fails the test on any status but 200). */
function answers(t: TestService): Promise<RecommendationBody[]> {
  return Promise.all(QUERIES.map((q) => recommendations(t, q)));
}

/** `batches` batches of 100 events, each naming a product id never seen before, 8 batches at a time. */
async function postJunk(t: TestService, batches: number): Promise<void> {
  for (let b = 0; b < batches; b += 8) {
    const sent = Array.from({ length: Math.min(8, batches - b) }, (_, k) =>
      postEvents(
        t,
        Array.from({ length: 100 }, (_, i) => {
          const n = (b + k) * 100 + i;
          return { type: n % 2 ? 'add_to_cart' : 'view', productId: `junk-${n}`, sessionId: `junk-s-${n}`, metadata: { orderId: `junk-o-${n}` } };
        }),
      ),
    );
    for (const outcome of await Promise.all(sent)) expect(outcome).toMatchObject({ success: true, accepted: 100 });
  }
}

describe('bounded untrusted input', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test('When a public key posts 20k events naming invented products, then they are stored and acknowledged, memory stays within the pending bound, answers for real products do not change, and restarts (from a snapshot, and from the log alone) still answer', async () => {
    const first = await startTestService({ clock: () => NOW, env: { PAIRWISE_PENDING_EVENTS: '500' } });
    started.push(first);
    await putProducts(first, ['1', '2', '3', '4', '5'].map((id) => wireProduct(id, { collections: ['c1'] })));
    await postEvents(first, [
      { type: 'view', productId: '1', sessionId: 's1' },
      { type: 'add_to_cart', productId: '1', sessionId: 's1' },
      { type: 'add_to_cart', productId: '2', sessionId: 's1' },
      { type: 'purchase', productId: '3', sessionId: 's2' },
    ]);
    const before = await answers(first);

    await postJunk(first, 200);
    const engine = first.service.engines.get(first.shop.shopId);
    expect(engine.eventCount).toBe(20_004);
    expect(engine.catalog.size).toBe(5);
    expect(engine.pending.size).toBe(500);
    expect(engine.shoppers.size).toBe(2);
    expect(engine.basketSlots.size).toBe(2);
    expect(await answers(first)).toEqual(before);
    const metrics = await (await first.fetch('/metrics', { key: first.shop.secretKey })).text();
    expect(metrics).toContain(`pairwise_pending_events{shop="${first.shop.shopId}"} 500`);

    await first.stop(); // takes a snapshot
    const second = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW, env: { PAIRWISE_PENDING_EVENTS: '500' } });
    started.push(second);
    expect(second.service.replayed).toMatchObject({ snapshots: 1, events: 0 });
    expect(second.service.engines.get(first.shop.shopId).pending.size).toBe(500);
    expect(await answers(second)).toEqual(before);

    // Another bound is another engine config: the snapshot is set aside and the whole log replays.
    await second.stop();
    const third = await startTestService({ dataDir: first.dataDir, shop: first.shop, clock: () => NOW, env: { PAIRWISE_PENDING_EVENTS: '300' } });
    started.push(third);
    expect(third.service.replayed).toMatchObject({ snapshots: 0, events: 20_004 });
    const replayed = third.service.engines.get(first.shop.shopId);
    expect(replayed.catalog.size).toBe(5);
    expect(replayed.pending.size).toBe(300);
    expect(await answers(third)).toEqual(before);

    // A junk id that later becomes a product counts its newest held events.
    await putProducts(third, [wireProduct('junk-19999', { collections: ['c9'] })]);
    const popular = await (await third.fetch('/api/recommendations?strategy=collection-popular&collectionId=c9&limit=1')).json();
    expect(popular).toMatchObject({ products: [{ id: 'gid://shopify/Product/junk-19999', strategy: 'collection-popular' }], meta: { modelLevel: 1 } });
  });
});
