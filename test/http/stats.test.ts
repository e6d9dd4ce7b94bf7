// Attribution and GET /api/stats through the real server: a scripted sequence of shoppers,
// impressions, clicks and purchases with the exact numbers every statistic must show, the same
// numbers after a restart (from the snapshot, and from the whole log), and the query's errors.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { wilson } from '../../src/analytics/intervals.js';
import { postEvents, putProducts, REC_ID, startTestService, wireProduct, type TestService } from '../support/service.js';

const D0 = Date.parse('2025-06-01T00:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The service's clock: after every scripted event. */
const NOW = D0 + 9 * DAY;

interface Metrics {
  impressions: number;
  clicks: number;
  addToCarts: number;
  orders: number;
  revenue: number;
  storefrontRevenue: number;
  cartedClicks: number;
  convertedClicks: number;
  ctr: unknown;
  addToCartRate: unknown;
  conversionRate: unknown;
}

/**
 * Every statistic of a group with these counts, the rates' intervals as wilson() computes them
 * (checked by hand in test/analytics/intervals.test.ts). `carted` and `converted` are the group's
 * clicks that went on to a cart and to an order (counted on the click's day).
 */
function expected(impressions: number, clicks: number, addToCarts: number, orders: number, revenue: number, carted = 0, converted = 0): Metrics {
  // Every purchase of the script comes from the secret key: none is storefront-reported.
  return {
    impressions,
    clicks,
    addToCarts,
    orders,
    revenue,
    storefrontRevenue: 0,
    cartedClicks: carted,
    convertedClicks: converted,
    ctr: wilson(clicks, impressions),
    addToCartRate: wilson(carted, clicks),
    conversionRate: wilson(converted, clicks),
  };
}

async function stats(t: TestService, query: string): Promise<{ status: number; body: Record<string, unknown> & { totals: Metrics; groups: (Metrics & { key: string })[] } }> {
  const res = await t.fetch(`/api/stats?${query}`, { key: t.shop.secretKey });
  return { status: res.status, body: await res.json() };
}

async function recId(t: TestService, query: string): Promise<string> {
  const res = await t.fetch(`/api/recommendations?${query}`);
  const body = (await res.json()) as { meta: { recId: string } };
  return body.meta.recId;
}

const at = (ms: number) => new Date(ms).toISOString();

/**
 * The script. Trending shows on "home", bought-together on "pdp".
 * - Alice (customer cA): shown p1, p2, p3 on home; clicks p1 from it; two days later, in another
 *   session, buys 2 × p1 at 12.00 (order o1): one order, 24.00, on day 2.
 * - Bob (guest): shown p1; clicks it without a recId (his session was shown it: counts); adds it
 *   to the cart; buys it and p3 in order o2 (p1 at the catalog's 10.00; p3 never clicked: not his
 *   recommendation's), then p2 (never clicked: nothing).
 * - Dave (guest): clicks p1 with the recId and buys it without an orderId (one order, 10.00): two
 *   shoppers on one product each count.
 * - Carol (customer cC): shown p2 on pdp and clicks it; buys it 8 days later: outside the window.
 *   She clicks p3, never recommended to her: no click.
 * - Eve: an impression with a recId that does not parse: accepted, not counted.
 */
async function script(t: TestService): Promise<void> {
  await putProducts(t, [wireProduct('p1', { price: '10.00' }), wireProduct('p2', { price: '25.00' }), wireProduct('p3', { price: '4.00' })]);
  const trending = await recId(t, 'strategy=trending&limit=3');
  const together = await recId(t, 'strategy=bought-together&productId=p1&limit=3');
  expect(trending).toMatch(/^rec_t_0_0_/);
  expect(together).toMatch(/^rec_b_0_0_/);
  const home = { widgetId: 'home', recId: trending };
  const pdp = { widgetId: 'pdp', recId: together };
  await postEvents(
    t,
    [
      { type: 'impression', productId: 'p1', sessionId: 'sA', customerId: 'cA', ...home, timestamp: at(D0 + 10 * HOUR) },
      { type: 'impression', productId: 'p2', sessionId: 'sA', customerId: 'cA', ...home, timestamp: at(D0 + 10 * HOUR) },
      { type: 'impression', productId: 'p3', sessionId: 'sA', customerId: 'cA', ...home, timestamp: at(D0 + 10 * HOUR) },
      { type: 'click', productId: 'p1', sessionId: 'sA', customerId: 'cA', ...home, timestamp: at(D0 + 10 * HOUR + 60_000) },
      { type: 'impression', productId: 'p1', sessionId: 'sB', ...home, timestamp: at(D0 + 11 * HOUR) },
      { type: 'click', productId: 'p1', sessionId: 'sB', timestamp: at(D0 + 11 * HOUR + 60_000) },
      { type: 'add_to_cart', productId: 'p1', sessionId: 'sB', timestamp: at(D0 + 11 * HOUR + 120_000) },
      { type: 'purchase', productId: 'p1', sessionId: 'sB', metadata: { orderId: 'o2' }, timestamp: at(D0 + 11 * HOUR + 600_000) },
      { type: 'purchase', productId: 'p3', sessionId: 'sB', metadata: { orderId: 'o2' }, timestamp: at(D0 + 11 * HOUR + 600_000) },
      { type: 'purchase', productId: 'p2', sessionId: 'sB', timestamp: at(D0 + 11 * HOUR + 700_000) },
      { type: 'click', productId: 'p1', sessionId: 'sD', ...home, timestamp: at(D0 + 13 * HOUR) },
      { type: 'purchase', productId: 'p1', sessionId: 'sD', timestamp: at(D0 + 14 * HOUR) },
      { type: 'impression', productId: 'p2', sessionId: 'sC', customerId: 'cC', ...pdp, timestamp: at(D0 + 12 * HOUR) },
      { type: 'click', productId: 'p2', sessionId: 'sC', customerId: 'cC', ...pdp, timestamp: at(D0 + 12 * HOUR + 60_000) },
      { type: 'click', productId: 'p3', sessionId: 'sC', customerId: 'cC', timestamp: at(D0 + 12 * HOUR + 120_000) },
      { type: 'impression', productId: 'p1', sessionId: 'sE', widgetId: 'home', recId: 'rec_bogus', timestamp: at(D0 + 15 * HOUR) },
    ],
    t.shop.secretKey,
  );
  await postEvents(
    t,
    [
      { type: 'purchase', productId: 'p1', sessionId: 'sA2', customerId: 'cA', metadata: { orderId: 'o1', price: 12, quantity: 2 }, timestamp: at(D0 + 2 * DAY + HOUR) },
      { type: 'purchase', productId: 'p2', sessionId: 'sC2', customerId: 'cC', timestamp: at(D0 + 8 * DAY + 12 * HOUR + 60_001) },
    ],
    t.shop.secretKey,
  );
}

/** What the script must show over 2025-06-01 … 2025-06-03: Bob's click went on to a cart, his, Dave's and Alice's to an order. */
const TOTALS = expected(5, 4, 1, 3, 44, 1, 3);
// No item of the script was pinned by a rule: all of each strategy's numbers are organic.
const BY_STRATEGY = [
  { key: 'bought-together', ...expected(1, 1, 0, 0, 0), pinned: expected(0, 0, 0, 0, 0), organic: expected(1, 1, 0, 0, 0) },
  { key: 'trending', ...expected(4, 3, 1, 3, 44, 1, 3), pinned: expected(0, 0, 0, 0, 0), organic: expected(4, 3, 1, 3, 44, 1, 3) },
];
const BY_WIDGET = [
  { key: 'home', ...expected(4, 3, 1, 3, 44, 1, 3), registered: false },
  { key: 'pdp', ...expected(1, 1, 0, 0, 0), registered: false },
];
const BY_DAY = [
  // Alice's click of 06-01 converted with her order of 06-03: counted on the click's day.
  { key: '2025-06-01', ...expected(5, 4, 1, 2, 20, 1, 3) },
  { key: '2025-06-02', ...expected(0, 0, 0, 0, 0) },
  { key: '2025-06-03', ...expected(0, 0, 0, 1, 24) },
];
/**
 * The top products, by revenue then clicks (impressions are not counted per product): p3 was never
 * clicked from a recommendation (its purchase in order o2 earns nothing), so it is not there.
 */
const BY_PRODUCT = [
  { key: 'p1', title: 'Product p1', ...expected(0, 3, 1, 3, 44, 1, 3) },
  { key: 'p2', title: 'Product p2', ...expected(0, 1, 0, 0, 0) },
];
const RANGE = 'from=2025-06-01&to=2025-06-03';

async function expectScriptNumbers(t: TestService): Promise<void> {
  const byStrategy = await stats(t, `${RANGE}&groupBy=strategy`);
  expect(byStrategy.status).toBe(200);
  expect(byStrategy.body).toEqual({ from: '2025-06-01', to: '2025-06-03', groupBy: 'strategy', totals: TOTALS, groups: BY_STRATEGY });
  expect((await stats(t, `${RANGE}&groupBy=widget`)).body.groups).toEqual(BY_WIDGET);
  expect((await stats(t, `${RANGE}&groupBy=day`)).body.groups).toEqual(BY_DAY);
  expect((await stats(t, `${RANGE}&groupBy=product`)).body).toEqual({ from: '2025-06-01', to: '2025-06-03', groupBy: 'product', totals: TOTALS, groups: BY_PRODUCT });
  // Carol's late purchase is on 2025-06-09: outside the window, so no day shows it.
  expect((await stats(t, 'from=2025-06-01&to=2025-06-10&groupBy=strategy')).body.totals).toEqual(TOTALS);
  expect((await stats(t, 'from=2025-06-02&to=2025-06-03')).body.totals).toEqual(expected(0, 0, 0, 1, 24));
}

describe('attribution statistics', () => {
  const started: TestService[] = [];
  let t: TestService;
  beforeEach(async () => {
    t = await startTestService({ clock: () => NOW });
    started.push(t);
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.cleanup();
  });

  test('When the scripted shoppers see, click and buy, then every statistic has its exact expected value', async () => {
    await script(t);
    await expectScriptNumbers(t);
  });

  test('When the service restarts, from its snapshot or from the whole log, then the statistics are the same', async () => {
    await script(t);
    await t.stop();
    const fromSnapshot = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW });
    started.push(fromSnapshot);
    expect(fromSnapshot.service.replayed).toMatchObject({ snapshots: 1, events: 0 });
    await expectScriptNumbers(fromSnapshot);
    await fromSnapshot.stop();
    // Another engine config makes the snapshot unusable: every event is replayed from the log.
    const fromLog = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW, env: { PAIRWISE_TRENDING_HALF_LIFE_HOURS: '47' } });
    started.push(fromLog);
    expect(fromLog.service.replayed).toMatchObject({ snapshots: 0, events: 18 });
    await expectScriptNumbers(fromLog);
  });

  test('When the same query is asked twice, then each answer has its own recId and the second comes from the cache', async () => {
    await putProducts(t, [wireProduct('p1'), wireProduct('p2')]);
    const hits = async () => Number(/^pairwise_answer_cache_hits_total (\d+)$/m.exec(await (await t.fetch('/metrics', { key: t.shop.secretKey })).text())![1]);
    const first = await recId(t, 'strategy=trending');
    const before = await hits();
    const second = await recId(t, 'strategy=trending');
    expect(await hits()).toBe(before + 1);
    expect(first).toMatch(REC_ID);
    expect(second).toMatch(REC_ID);
    expect(second).not.toBe(first);
  });

  test('When the query is malformed, then it is a 400 invalid_query naming the parameter; a public key is refused', async () => {
    for (const [query, pointer] of [
      ['from=2025-02-30', '/from'],
      ['to=yesterday', '/to'],
      ['from=2025-06-03&to=2025-06-01', '/from'],
      ['from=2020-01-01&to=2025-01-01', '/from'],
      ['groupBy=color', '/groupBy'],
    ] as const) {
      const { status, body } = await stats(t, query);
      expect(status, query).toBe(400);
      expect(body).toMatchObject({ code: 'invalid_query', errors: [{ pointer }] });
    }
    expect((await t.fetch('/api/stats')).status).toBe(403);
  });
});
