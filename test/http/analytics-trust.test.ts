// Analytics a storefront cannot forge, through the real server: invented widgetIds sent with the
// public key cannot take the dashboard's widget names (the merchant registers its own, through the
// log), and a purchase from the public key earns at most its catalog price × a bounded quantity,
// reported apart as storefront revenue; the same after a restart.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_STOREFRONT_QUANTITY } from '../../src/engine/attribution/attribution.js';
import { STOREFRONT_WIDGETS_PER_DAY } from '../../src/engine/attribution/widget-names.js';
import { ShopStore } from '../../src/store/shop-store.js';
import { expectProblem } from '../support/problem.js';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const D0 = Date.parse('2025-06-01T00:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = D0 + 3 * DAY;
const RANGE = 'from=2025-06-01&to=2025-06-02';
const at = (ms: number) => new Date(ms).toISOString();

interface Group {
  key: string;
  impressions: number;
  clicks: number;
  orders: number;
  revenue: number;
  storefrontRevenue: number;
  registered?: boolean;
}

async function stats(t: TestService, query: string): Promise<{ totals: Group; groups: Group[] }> {
  const res = await t.fetch(`/api/stats?${query}`, { key: t.shop.secretKey });
  expect(res.status).toBe(200);
  return (await res.json()) as { totals: Group; groups: Group[] };
}

async function recId(t: TestService): Promise<string> {
  const res = await t.fetch('/api/recommendations?strategy=trending&limit=3');
  return ((await res.json()) as { meta: { recId: string } }).meta.recId;
}

async function registerWidgets(t: TestService, widgets: unknown): Promise<Response> {
  return t.fetch('/api/shop/widgets', { method: 'PUT', key: t.shop.secretKey, body: JSON.stringify({ widgets }) });
}

describe('analytics a storefront cannot forge', () => {
  const started: TestService[] = [];
  let t: TestService;
  beforeEach(async () => {
    t = await startTestService({ clock: () => NOW });
    started.push(t);
    await putProducts(t, [wireProduct('p1', { price: '10.00' }), wireProduct('p2', { price: null })]);
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.cleanup();
  });

  test('When the public key sends 300 invented widgetIds with a real recId, then registered widgets keep their names and the storefront names only the first per day', async () => {
    // Arrange: the merchant registers its widgets; the storefront floods day 0 with invented ones.
    const registered = await registerWidgets(t, ['home', 'home']);
    expect(registered.status).toBe(200);
    expect(await registered.json()).toEqual({ widgets: ['home'] });
    const rec = await recId(t);
    const flood = Array.from({ length: 300 }, (_, i) => ({ type: 'impression', productId: 'p1', sessionId: `s${i}`, widgetId: `fake-${i}`, recId: rec, timestamp: at(D0 + HOUR) }));
    for (let i = 0; i < flood.length; i += 100) await postEvents(t, flood.slice(i, i + 100));

    // Act: the real widgets, after the flood on day 0, and on day 1.
    await postEvents(t, [
      { type: 'impression', productId: 'p1', sessionId: 'real', widgetId: 'home', recId: rec, timestamp: at(D0 + 2 * HOUR) },
      { type: 'impression', productId: 'p1', sessionId: 'real', widgetId: 'pdp', recId: rec, timestamp: at(D0 + 2 * HOUR) },
      { type: 'impression', productId: 'p1', sessionId: 'real', widgetId: 'pdp', recId: rec, timestamp: at(D0 + DAY + HOUR) },
    ]);

    // Assert: home is named (registered), day 1's pdp too; day 0 names only the first 20 invented ids.
    const expectWidgets = async (s: TestService) => {
      const { groups } = await stats(s, `${RANGE}&groupBy=widget`);
      const byKey = new Map(groups.map((g) => [g.key, g]));
      expect(byKey.get('home')).toMatchObject({ impressions: 1, registered: true });
      expect(byKey.get('pdp')).toMatchObject({ impressions: 1, registered: false });
      expect(byKey.get('(other)')).toMatchObject({ impressions: 300 - STOREFRONT_WIDGETS_PER_DAY + 1 });
      expect(groups.filter((g) => g.key.startsWith('fake-')).map((g) => g.key).sort()).toEqual(Array.from({ length: STOREFRONT_WIDGETS_PER_DAY }, (_, i) => `fake-${i}`).sort());
      expect(groups).toHaveLength(STOREFRONT_WIDGETS_PER_DAY + 3);
    };
    await expectWidgets(t);
    const shop = (await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { settings: { widgets: string[] } };
    expect(shop.settings.widgets).toEqual(['home']);

    // The same after a restart: from the snapshot, and from the whole log (the registration is in it).
    await t.stop();
    const fromSnapshot = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW });
    started.push(fromSnapshot);
    expect(fromSnapshot.service.replayed).toMatchObject({ snapshots: 1, events: 0 });
    await expectWidgets(fromSnapshot);
    await fromSnapshot.stop();
    const fromLog = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW, env: { PAIRWISE_TRENDING_HALF_LIFE_HOURS: '47' } });
    started.push(fromLog);
    expect(fromLog.service.replayed).toMatchObject({ snapshots: 0 });
    await expectWidgets(fromLog);
  });

  test('When the public key floods a day with 300 invented widgetIds, then the next day a real widget is still named', async () => {
    const rec = await recId(t);
    const flood = Array.from({ length: 300 }, (_, i) => ({ type: 'impression', productId: 'p1', sessionId: `s${i}`, widgetId: `fake-${i}`, recId: rec, timestamp: at(D0 + HOUR) }));
    for (let i = 0; i < flood.length; i += 100) await postEvents(t, flood.slice(i, i + 100));

    await postEvents(t, [{ type: 'impression', productId: 'p1', sessionId: 'real', widgetId: 'pdp', recId: rec, timestamp: at(D0 + DAY + HOUR) }]);

    const { groups } = await stats(t, 'from=2025-06-02&to=2025-06-02&groupBy=widget');
    expect(groups.map(({ key, impressions }) => ({ key, impressions }))).toEqual([{ key: 'pdp', impressions: 1 }]);
  });

  test('When another process registers a widget, then this server names it from that log position on', async () => {
    const rec = await recId(t);
    // Another server process of the data dir (or the CLI): its shop change goes into the log only.
    await new ShopStore(t.service.dbs).setWidgets(t.shop.shopId, ['late']);
    // Fill day 0's storefront names first: only a registered 'late' is still named after them.
    const flood = Array.from({ length: STOREFRONT_WIDGETS_PER_DAY }, (_, i) => ({ type: 'impression', productId: 'p1', sessionId: 's', widgetId: `fake-${i}`, recId: rec, timestamp: at(D0 + HOUR) }));
    await postEvents(t, [...flood, { type: 'impression', productId: 'p1', sessionId: 's', widgetId: 'late', recId: rec, timestamp: at(D0 + HOUR) }]);
    const { groups } = await stats(t, `${RANGE}&groupBy=widget`);
    expect(groups.find((g) => g.key === 'late')).toMatchObject({ impressions: 1, registered: true });
    expect(groups.find((g) => g.key === '(other)')).toBeUndefined();
  });

  test('When the widget list is not a list of ids, then it is a 400 invalid_widgets and nothing changes; a public key is refused', async () => {
    expect((await registerWidgets(t, ['home'])).status).toBe(200);
    for (const widgets of [[''], ['x'.repeat(129)], Array.from({ length: 65 }, (_, i) => `w${i}`), 'home', [7]]) {
      await expectProblem(await registerWidgets(t, widgets), 400, 'invalid_widgets');
    }
    const shop = (await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { settings: { widgets: string[] } };
    expect(shop.settings.widgets).toEqual(['home']);
    expect((await t.fetch('/api/shop/widgets', { method: 'PUT', body: JSON.stringify({ widgets: ['evil'] }) })).status).toBe(403);
  });

  test('When the public key claims a huge price, then the purchase earns at most the catalog price × the bounded quantity, reported as storefront revenue', async () => {
    // Arrange: one click on each product from a recommendation.
    const rec = await recId(t);
    await postEvents(t, [
      { type: 'click', productId: 'p1', sessionId: 'shopper', widgetId: 'home', recId: rec, timestamp: at(D0 + HOUR) },
      { type: 'click', productId: 'p2', sessionId: 'shopper', widgetId: 'home', recId: rec, timestamp: at(D0 + HOUR) },
    ]);

    // Act: the storefront claims a billion per unit and a thousand units, and a purchase of p2, which has no price.
    await postEvents(t, [
      { type: 'purchase', productId: 'p1', sessionId: 'shopper', metadata: { orderId: 'forged', price: 999_999_999, quantity: 1000 }, timestamp: at(D0 + 2 * HOUR) },
      { type: 'purchase', productId: 'p2', sessionId: 'shopper', metadata: { orderId: 'forged-2', price: 500 }, timestamp: at(D0 + 2 * HOUR) },
    ]);
    // The merchant's server reports a real order with its own price.
    await postEvents(t, [{ type: 'purchase', productId: 'p1', sessionId: 'shopper', metadata: { orderId: 'real', price: 12.5, quantity: 2 }, timestamp: at(D0 + 3 * HOUR) }], t.shop.secretKey);

    // Assert: 10.00 × MAX_STOREFRONT_QUANTITY from the storefront, 0 for p2, 25 as the server sent it.
    const storefront = 10 * MAX_STOREFRONT_QUANTITY;
    const expectRevenue = async (s: TestService) => {
      const { totals } = await stats(s, RANGE);
      expect(totals).toMatchObject({ clicks: 2, orders: 3, revenue: storefront + 25, storefrontRevenue: storefront });
      const { groups } = await stats(s, `${RANGE}&groupBy=product`);
      expect(groups.find((g) => g.key === 'p1')).toMatchObject({ revenue: storefront + 25, storefrontRevenue: storefront });
      expect(groups.find((g) => g.key === 'p2')).toMatchObject({ revenue: 0, storefrontRevenue: 0 });
    };
    await expectRevenue(t);
    await t.stop();
    const fromLog = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW, env: { PAIRWISE_TRENDING_HALF_LIFE_HOURS: '47' } });
    started.push(fromLog);
    await expectRevenue(fromLog);
  });
});
