import { describe, expect, test } from 'vitest';
import { ShopEngine, type EngineSnapshot } from '../../src/engine/shop-engine.js';
import { CUSTOMER_SPACE, SESSION_SPACE, customerKey, sessionKey } from '../../src/engine/shopper-keys.js';
import { expectedTrendingScore, expectedTrendingScoreOf, repeated } from '../support/trending.js';
import { ask, DAY, engineWith, event, HOUR, idsOf, product, T0 } from './fixtures.js';

function hasHistory(engine: ShopEngine, key: string): boolean {
  return engine.hasHistory(engine.shoppers.slotOf(key));
}

/** The shopper's recently viewed product ids, newest first. */
function viewed(engine: ShopEngine, key: string): string[] {
  const slot = engine.shoppers.slotOf(key);
  const start = engine.recentViews.start(slot);
  return Array.from(engine.recentViews.ids.subarray(start, start + engine.recentViews.size(slot)), (id) => engine.catalog.idOf(id));
}

describe('ShopEngine', () => {
  test('When events name a product before the catalog has it, then they count once it is added', () => {
    const engine = engineWith(['a']);
    engine.apply(event('purchase', 'late', T0));
    engine.apply(event('view', 'a', T0));
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['a']);

    engine.upsertProduct(product('late', { collections: ['k'] }));
    const trending = ask(engine, { strategy: 'trending' }, T0);
    expect(idsOf(trending)).toEqual(['late', 'a']);
    // Its purchase counts as if the product had been there (weight 6, fresh).
    expect(trending.items[0]!.score).toBeCloseTo(expectedTrendingScore(6, 6), 9);
    expect(idsOf(ask(engine, { strategy: 'collection-popular', collectionId: 'k', limit: 1 }, T0))).toEqual(['late']);
  });

  test('When a flood of events names ids the catalog never had, then no dense id, shopper or basket is created and the held events stay within the bound', () => {
    const engine = engineWith(['a'], { maxPendingEvents: 1000, pendingPerProduct: 4 });
    for (let i = 0; i < 50_000; i++) {
      engine.apply({ type: i % 2 ? 'add_to_cart' : 'view', productId: `junk-${i}`, sessionId: `s-${i}`, customerId: `c-${i}`, metadata: { orderId: `o-${i}` }, timestamp: T0 });
    }
    expect(engine.eventCount).toBe(50_000);
    expect(engine.catalog.size).toBe(1);
    expect(engine.pending.size).toBe(1000);
    expect(engine.pending.idCount).toBe(1000);
    expect(engine.shoppers.size).toBe(0);
    expect(engine.basketSlots.size).toBe(0);
    expect(engine.trending.raw(engine.catalog.denseOf('a')!)).toBe(0);
    // Events of real products still count as usual.
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    expect(idsOf(ask(engine, { strategy: 'recently-viewed', sessionId: 's1' }, T0))).toEqual(['a']);
  });

  test('When a product is added after its events, then its most recent events within the bound count, as if it had been there, and older ones do not', () => {
    const engine = engineWith(['a', 'b'], { pendingPerProduct: 3 });
    // Five purchases of "late" an hour apart, the newest now; each with "a" in the same order.
    for (let i = 0; i < 5; i++) {
      const t = T0 - (4 - i) * HOUR;
      engine.apply({ type: 'purchase', productId: 'a', sessionId: `s${i}`, metadata: { orderId: `o${i}` }, timestamp: t });
      engine.apply({ type: 'purchase', productId: 'late', sessionId: `s${i}`, metadata: { orderId: `o${i}` }, timestamp: t });
    }
    engine.apply(event('view', 'late', T0, { sessionId: 'viewer' }));
    engine.apply(event('purchase', 'b', T0 - DAY));
    expect(engine.pending.size).toBe(3);

    engine.upsertProduct(product('late', { collections: ['k'] }));
    expect(engine.pending.size).toBe(0);
    const late = ask(engine, { strategy: 'trending' }, T0).items.find((item) => item.product.id === 'late')!;
    // Its three newest events count: purchases 1 and 0 hours ago and the view; the three older purchases do not.
    const kept = [{ weight: 6, ageMs: HOUR }, { weight: 6, ageMs: 0 }, { weight: 1, ageMs: 0 }];
    expect(late.score).toBeCloseTo(expectedTrendingScoreOf(kept), 9);
    expect(late.score).toBeLessThan(expectedTrendingScoreOf([...repeated(3, 6, 2 * HOUR), ...kept]));
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 1 }, T0))).toEqual(['late']);
    expect(idsOf(ask(engine, { strategy: 'collection-popular', collectionId: 'k', limit: 1 }, T0))).toEqual(['late']);
    expect(idsOf(ask(engine, { strategy: 'recently-viewed', sessionId: 'viewer', limit: 1 }, T0))).toEqual(['late']);
  });

  test('When a snapshot is taken a model per turn, then it is the snapshot taken at once, with the thread given back between models', async () => {
    const engine = engineWith(['a', 'b', 'c', 'd']);
    for (let i = 0; i < 300; i++) {
      const type = (['view', 'add_to_cart', 'purchase', 'dismiss', 'click'] as const)[i % 5]!;
      engine.apply(event(type, ['a', 'b', 'c', 'd', 'gone'][i % 5]!, T0 + i * 60_000, { sessionId: `s${i % 11}`, ...(i % 3 ? { customerId: `c${i % 4}` } : {}) }));
    }
    let pauses = 0;
    const inTurns = await engine.snapshotInTurns(async () => void pauses++);
    expect(structuredClone(inTurns)).toEqual(structuredClone(engine.snapshot()));
    expect(Object.keys(inTurns)).toEqual(Object.keys(engine.snapshot()));
    expect(pauses).toBe(15); // one per model
  });

  test('When an engine holding events for a missing product is snapshotted and restored, then the restored one holds them too and counts them when the product comes', () => {
    const original = engineWith(['a']);
    for (let i = 0; i < 200; i++) original.apply(event(i % 3 ? 'view' : 'purchase', `late-${i % 20}`, T0 - i * 60_000, { sessionId: `s${i % 7}`, ...(i % 2 ? { customerId: 'c1' } : {}) }));
    const restored = ShopEngine.restore(original.config, structuredClone(original.snapshot()))!;
    restored.upsertProduct(product('a'));
    expect(restored.pending.size).toBe(original.pending.size);
    expect(restored.pending.size).toBeGreaterThan(0);
    for (let i = 0; i < 20; i++) {
      original.upsertProduct(product(`late-${i}`));
      restored.upsertProduct(product(`late-${i}`));
    }
    expect(restored.pending.size).toBe(0);
    for (const request of [{ strategy: 'trending' as const }, { strategy: 'similar' as const, productId: 'late-3' }, { strategy: 'personalized' as const, customerId: 'c1' }]) {
      expect(ask(restored, request, T0)).toEqual(ask(original, request, T0));
    }
    expect(ask(restored, { strategy: 'trending' }, T0).items).toHaveLength(8);
  });

  test("When an order id is longer than 128 characters, then it names no order: its items pair with their session's other purchases and no basket key is longer", () => {
    const engine = engineWith(['a', 'b', 'c'], { maxBaskets: 10 });
    const long = 'o'.repeat(4000);
    engine.apply({ type: 'purchase', productId: 'a', sessionId: 's1', metadata: { orderId: long }, timestamp: T0 });
    engine.apply({ type: 'purchase', productId: 'b', sessionId: 's2', metadata: { orderId: long }, timestamp: T0 });
    engine.apply({ type: 'purchase', productId: 'c', sessionId: 's2', timestamp: T0 });
    const keys = [...engine.basketSlots.oldestFirst()].map((slot) => engine.basketSlots.keyOf(slot));
    expect(keys).toEqual(['p:s1', 'p:s2']);
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'b', limit: 1 }, T0))).toEqual(['c']);
    // 128 characters still name an order.
    engine.apply({ type: 'purchase', productId: 'a', sessionId: 's3', metadata: { orderId: 'o'.repeat(128) }, timestamp: T0 });
    expect(engine.basketSlots.keyOf(engine.basketSlots.slotOf('o:' + 'o'.repeat(128)))).toBe('o:' + 'o'.repeat(128));
  });

  test('When a product is removed and comes back, then its earlier events count again', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('purchase', 'b', T0));
    engine.removeProduct('b');
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['a']);
    engine.upsertProduct(product('b'));
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['b', 'a']);
  });

  test('When dismiss and impression events arrive, then they add no popularity and no view history', () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('dismiss', 'b', T0, { sessionId: 's1' }));
    engine.apply(event('impression', 'b', T0, { sessionId: 's1' }));
    expect(engine.eventCount).toBe(2);
    expect(engine.trending.raw(engine.catalog.denseOf('b')!)).toBe(0);
    expect(hasHistory(engine, sessionKey('s1'))).toBe(false);
  });

  test('When a shopper views more products than the per-shopper bound, then only that many are kept', () => {
    const engine = engineWith(Array.from({ length: 10 }, (_, i) => `p${i}`), { recentViewsPerShopper: 3 });
    for (let i = 0; i < 10; i++) engine.apply(event('view', `p${i}`, T0 + i, { sessionId: 's1', customerId: 'c1' }));
    expect(viewed(engine, sessionKey('s1'))).toEqual(['p9', 'p8', 'p7']);
    expect(viewed(engine, customerKey('c1'))).toHaveLength(3);
  });

  test('When more sessions are active than the bound, then the least recently active are forgotten', () => {
    const engine = engineWith(['a'], { maxSessions: 2 });
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's2' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's3' }));
    expect(engine.shoppers.size).toBe(2);
    expect(hasHistory(engine, sessionKey('s2'))).toBe(false);
    expect(hasHistory(engine, sessionKey('s1'))).toBe(true);
    expect(hasHistory(engine, sessionKey('s3'))).toBe(true);
  });

  test('When a flood of events names a new session, customer and order each time, then the shopper and basket tables stay at their bounds', () => {
    const engine = engineWith(['a', 'b'], { maxCustomers: 60, maxSessions: 40, maxBaskets: 50 });
    for (let i = 0; i < 20_000; i++) {
      engine.apply({ type: i % 2 ? 'purchase' : 'view', productId: i % 3 ? 'a' : 'b', sessionId: `s-${i}`, customerId: `c-${i}`, metadata: { orderId: `o-${i}` }, timestamp: T0 + i });
    }
    expect(engine.shoppers.size).toBe(100);
    expect(engine.shoppers.sizeOf(CUSTOMER_SPACE)).toBe(60);
    expect(engine.basketSlots.size).toBe(50);
    expect(engine.catalog.size).toBe(2);
    expect(hasHistory(engine, customerKey('c-19999'))).toBe(true);
    expect(hasHistory(engine, customerKey('c-0'))).toBe(false);
  });

  test('When a flood of new sessions outnumbers the session pool, then no customer is evicted and their answers stay the same', () => {
    const engine = engineWith(['a', 'b', 'c', 'd', 'e'], { maxCustomers: 4, maxSessions: 8 });
    // Other customers' histories pair a with c and b with d: alice's personalized neighbours.
    for (const [customer, items] of [['bob', ['a', 'c']], ['carol', ['b', 'd']]] as const) for (const p of items) engine.apply(event('purchase', p, T0, { sessionId: `s-${customer}`, customerId: customer }));
    engine.apply(event('purchase', 'a', T0, { sessionId: 'real', customerId: 'alice' }));
    engine.apply(event('view', 'b', T0, { sessionId: 'real', customerId: 'alice' }));
    const personal = (answer: ReturnType<typeof ask>) => ({ level: answer.modelLevel, items: answer.items.filter((item) => item.strategy === 'personalized').map((item) => item.product.id) });
    const before = personal(ask(engine, { strategy: 'personalized', customerId: 'alice' }, T0 + 2));
    expect(before.level).toBe(3);
    expect(before.items.length).toBeGreaterThan(0);
    for (let i = 0; i < 10_000; i++) engine.apply(event('view', 'e', T0 + 2, { sessionId: `flood-${i}` }));
    expect(engine.shoppers.sizeOf(SESSION_SPACE)).toBe(8);
    expect(engine.shoppers.sizeOf(CUSTOMER_SPACE)).toBe(3);
    expect(viewed(engine, customerKey('alice'))).toEqual(['b']);
    expect(personal(ask(engine, { strategy: 'personalized', customerId: 'alice' }, T0 + 2))).toEqual(before);
  });

  test('When one session cycles through more products than its pairing window, then its pairs stop growing once each product reached its cap for the day', () => {
    const products = Array.from({ length: 21 }, (_, i) => `p${i}`);
    const engine = engineWith(products);
    const [p0, p1] = [engine.catalog.denseOf('p0')!, engine.catalog.denseOf('p1')!];
    const round = (r: number) => {
      for (let i = 0; i < products.length; i++) engine.apply(event('view', products[i]!, T0 + r * 1000 + i, { sessionId: 'cycler' }));
    };
    // A view weighs 1 and a shopper counts 16 per product and day: 16 rounds count, later ones not.
    for (let r = 0; r < 16; r++) round(r);
    const capped = { coViews: engine.coViews.together(p0, p1), trending: engine.trending.raw(p0), groups: engine.coViews.groupsOf(p0) };
    expect(capped.coViews).toBeGreaterThan(0);
    for (let r = 16; r < 40; r++) round(r);
    expect({ coViews: engine.coViews.together(p0, p1), trending: engine.trending.raw(p0), groups: engine.coViews.groupsOf(p0) }).toEqual(capped);
    // The next day counts again.
    engine.apply(event('view', 'p0', T0 + DAY, { sessionId: 'cycler' }));
    expect(engine.coViews.groupsOf(p0)).toBeGreaterThan(capped.groups);
  });

  test('When a snapshot of version 11 is restored (no sales, tallies or recency; affinities without totals), then it restores with sales taken from what momentum read then', () => {
    const original = engineWith(['a', 'b', 'c']);
    for (let i = 0; i < 4; i++) original.apply(event('purchase', 'a', T0 - i * DAY, { sessionId: `s${i}`, customerId: `k${i}` }));
    original.apply(event('purchase', 'b', T0, { sessionId: 's0', customerId: 'k0' }));
    original.apply(event('view', 'c', T0, { sessionId: 's9' }));
    const snapshot = structuredClone(original.snapshot()) as EngineSnapshot;
    const { recency: _r, ...config } = JSON.parse(snapshot.config) as Record<string, unknown>;
    const old = { ...snapshot, version: 11, config: JSON.stringify(config), affinities: { ...snapshot.affinities, entries: { ...snapshot.affinities.entries, lanes: snapshot.affinities.entries.lanes.slice(0, 2) } } } as EngineSnapshot;
    delete old.sales;
    delete old.tally;
    delete old.recency;
    const restored = ShopEngine.restore(original.config, old)!;
    expect(restored).toBeDefined();
    for (const p of ['a', 'b', 'c']) restored.upsertProduct(product(p));
    const a = restored.catalog.denseOf('a')!;
    // Recent sales: popularity ÷ the purchase weight (purchases only here); sales ever: orders ever.
    expect(restored.sales.recent.raw(a) * restored.sales.recent.scaleAt(T0)).toBeCloseTo((original.popularity.raw(a) * original.popularity.scaleAt(T0)) / 6, 9);
    expect(restored.sales.ever.raw(a)).toBe(4);
    expect(restored.recency).toBe('auto');
    // Each affinity's total starts from its stored value; the engine answers and counts on.
    const slot = restored.shoppers.slotIn(CUSTOMER_SPACE, 'k0');
    const start = restored.affinities.start(slot);
    for (let k = 0; k < restored.affinities.size(slot); k++) expect(restored.affinities.totals[start + k]).toBe(restored.affinities.values[start + k]);
    expect(idsOf(ask(restored, { strategy: 'personalized', customerId: 'k1' }, T0))).toContain('b');
    restored.apply(event('purchase', 'c', T0, { sessionId: 's1', customerId: 'k1' }));
    expect(restored.sales.ever.raw(restored.catalog.denseOf('c')!)).toBe(1);
  });

  test("When a snapshot of version 12 is restored (a tally of another form), then it restores with an empty tally and counts on", () => {
    const original = engineWith(['a']);
    for (let i = 0; i < 40; i++) original.apply(event('view', 'a', T0, { sessionId: 'flood' }));
    const a = original.catalog.denseOf('a')!;
    const capped = original.trending.raw(a);
    const snapshot = structuredClone(original.snapshot()) as EngineSnapshot;
    const old = { ...snapshot, version: 12, tally: { blockClass: new Uint8Array(0), fill: new Uint8Array(0), start: new Uint8Array(0), lanes: [], free: [] } } as unknown as EngineSnapshot;
    const restored = ShopEngine.restore(original.config, old)!;
    expect(restored).toBeDefined();
    restored.upsertProduct(product('a'));
    expect(restored.tally.size(restored.shoppers.slotIn(SESSION_SPACE, 'flood'))).toBe(0);
    // The session counts again up to one cap, then no more.
    for (let i = 0; i < 40; i++) restored.apply(event('view', 'a', T0, { sessionId: 'flood' }));
    expect(restored.trending.raw(a)).toBeGreaterThan(capped);
    expect(restored.trending.raw(a)).toBeCloseTo(2 * capped, 9);
  });

  test('When a snapshot was taken with one shared shopper pool (maxShoppers), then it restores into pools of their own and answers as before', () => {
    const original = engineWith(['a', 'b', 'c'], { maxCustomers: 3, maxSessions: 3 });
    original.apply(event('purchase', 'a', T0, { sessionId: 's1', customerId: 'alice' }));
    original.apply(event('view', 'b', T0, { sessionId: 's2' }));
    original.apply(event('view', 'c', T0, { sessionId: 's1', customerId: 'alice' }));
    expect(original.shoppers.size).toBe(3);
    const snapshot = structuredClone(original.snapshot());
    // The config as a snapshot of the shared pool recorded it: maxShoppers where the two capacities are now.
    const { maxCustomers: _c, maxSessions: _s, ...rest } = JSON.parse(snapshot.config) as Record<string, unknown>;
    const entries = Object.entries(rest);
    const at = Object.keys(JSON.parse(snapshot.config) as object).indexOf('maxCustomers');
    entries.splice(at, 0, ['maxShoppers', 6]);
    snapshot.config = JSON.stringify(Object.fromEntries(entries));
    expect(snapshot.config).not.toBe(JSON.stringify(original.config));
    const restored = ShopEngine.restore(original.config, snapshot)!;
    expect(restored).toBeDefined();
    for (const p of ['a', 'b', 'c']) restored.upsertProduct(product(p));
    expect(ask(restored, { strategy: 'personalized', customerId: 'alice' }, T0)).toEqual(ask(original, { strategy: 'personalized', customerId: 'alice' }, T0));
    expect(viewed(restored, sessionKey('s2'))).toEqual(['b']);
    // Shoppers that do not fit the pools together: replayed from the log instead.
    expect(ShopEngine.restore({ ...original.config, maxCustomers: 1, maxSessions: 1 }, structuredClone(original.snapshot()))).toBeUndefined();
    expect(ShopEngine.restore({ ...original.config, pairFloor: 0.5 }, structuredClone(original.snapshot()))).toBeUndefined();
  });
});
