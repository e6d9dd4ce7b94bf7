// A flood of new sessionIds through the public key (issue "Hard edges", row 1): customers and
// sessions are evicted from pools of their own, so a logged-in customer's personalized answer is
// the same before, during and after the flood, and after a restart on the same data dir.
import { afterEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, recommendations, startTestService, wireProduct, type RecommendationBody, type StartOptions, type TestService } from '../support/service.js';

/**
 * Past the 200,000 shoppers that customers and sessions once shared: the attack as it was found.
 * The pools here are far smaller (ENV), so every session of the flood but the last 500 is evicted.
 */
const FLOOD = 201_000;
const BATCH = 100;
const CONCURRENCY = 8;

const ENV = {
  PAIRWISE_MAX_CUSTOMERS: '100',
  PAIRWISE_MAX_SESSIONS: '500',
  // The pools alone: no bound on new sessions (new-sessions.test.ts tests it; loopback is exempt anyway).
  PAIRWISE_NEW_SESSIONS_PER_ADDRESS_PER_MINUTE: '0',
  PAIRWISE_NEW_SESSIONS_PER_SHOP_PER_MINUTE: '0',
  // The models alone decide the answers: no EASE fit installed mid-flood, no cached answer.
  PAIRWISE_EASE_REFIT_EVENTS: '0',
  PAIRWISE_EASE_REFIT_MINUTES: '0',
  PAIRWISE_ANSWER_CACHE_MB: '0',
};

/** What the customer's answer says about them: its level and the items their own history chose. */
function personal(body: RecommendationBody): { level: number; items: string[] } {
  return { level: body.meta.modelLevel, items: body.products.filter((p) => p.strategy === 'personalized').map((p) => p.id) };
}

describe('shopper pools under a flood of new sessions', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(options: StartOptions = {}): Promise<TestService> {
    const t = await startTestService({ ...options, env: { ...ENV, ...options.env } });
    started.push(t);
    return t;
  }

  test('When the public key sends 201,000 events each with a new sessionId, then a logged-in customer keeps their level-3 answer during and after the flood and after a restart', async () => {
    const t = await start();
    await putProducts(t, ['p1', 'p2', 'p3', 'p4', 'p5', 'z'].map((id) => wireProduct(id)));
    // Other customers' orders pair p1 with p2 and p3: alice's neighbours once she has bought p1.
    const orders = [['bob', ['p1', 'p2']], ['carol', ['p1', 'p3']], ['dave', ['p2', 'p4']]] as const;
    await postEvents(t, orders.flatMap(([customerId, items]) => items.map((productId) => ({ type: 'purchase', productId, sessionId: `s-${customerId}`, customerId }))), t.shop.secretKey);
    await postEvents(t, [{ type: 'purchase', productId: 'p1', sessionId: 's-alice', customerId: 'alice' }], t.shop.secretKey);
    const ask = async () => personal(await recommendations(t, 'strategy=personalized&customerId=alice&limit=2', t.shop.secretKey));
    const before = await ask();
    expect(before.level).toBe(3);
    expect(before.items.length).toBeGreaterThan(0);

    // The flood: views of a product alice's answer does not read, each from a session never seen.
    let next = 0;
    const during: { level: number; items: string[] }[] = [];
    const flooder = async () => {
      while (next < FLOOD) {
        const from = next;
        next += BATCH;
        const events = Array.from({ length: Math.min(BATCH, FLOOD - from) }, (_, i) => ({ type: 'view', productId: 'z', sessionId: `flood-${from + i}` }));
        await postEvents(t, events);
        if (from % 40_000 === 0) during.push(await ask());
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, flooder));

    expect(during.length).toBeGreaterThan(1);
    for (const answer of during) expect(answer).toEqual(before);
    expect(await ask()).toEqual(before);
    const shop = (await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { counts: { customers: number; sessions: number } };
    expect(shop.counts).toMatchObject({ customers: 4, sessions: 500 });

    await t.stop();
    const again = await start({ dataDir: t.dataDir, shop: t.shop });
    expect(personal(await recommendations(again, 'strategy=personalized&customerId=alice&limit=2', again.shop.secretKey))).toEqual(before);
  }, 180_000);
});
