import { describe, expect, test } from 'vitest';
import type { CoOccurrence } from '../../../src/engine/co-occurrence.js';
import type { EngineEvent } from '../../../src/engine/event.js';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/engine/engine-config.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { confidentPairScore, pairScore } from '../../../src/engine/strategies/bought-together.js';
import { ask, engineWith, HOUR, idsOf, keyedModel, product, strategiesOf, T0 } from '../fixtures.js';

/** The neighbours kept in an item's row. */
function neighborIds(model: CoOccurrence, item: number): number[] {
  const start = model.pairs.start(item);
  return Array.from(model.pairs.ids.subarray(start, start + model.pairs.size(item)));
}

function order(engine: ShopEngine, orderId: string, productIds: string[], t = T0 - HOUR): void {
  for (const productId of productIds) {
    const e: EngineEvent = { type: 'purchase', productId, sessionId: `s-${orderId}`, metadata: { orderId }, timestamp: t };
    engine.apply(e);
  }
}

describe('bought-together', () => {
  test('When A and B are bought together in 30 orders, then B beats a best-seller that is in every basket', () => {
    const engine = engineWith(['a', 'b', 'best', 'x']);
    for (let i = 0; i < 30; i++) order(engine, `ab${i}`, ['a', 'b']);
    for (let i = 0; i < 35; i++) order(engine, `abest${i}`, ['a', 'best']);
    for (let i = 0; i < 1000; i++) order(engine, `best${i}`, ['best', 'x']);
    const result = ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0);
    expect(idsOf(result)).toEqual(['b', 'best']);
    expect(result.modelLevel).toBe(2);
    expect(strategiesOf(result)).toEqual(['bought-together', 'bought-together']);
  });

  test('When a best-seller shares more baskets with A by chance than a complement does, then the complement ranks first; with no discount (pairPopularityExponent 0) the best-seller would', () => {
    // The complement is in 30 baskets, all with A; the best-seller in 1,035, 35 of them with A
    // (the share of A's baskets any product in 1 of 30 baskets would share with it).
    const answer = (config: { pairPopularityExponent?: number }) => {
      const engine = engineWith(['a', 'complement', 'best', 'x'], config);
      for (let i = 0; i < 30; i++) order(engine, `ac${i}`, ['a', 'complement']);
      for (let i = 0; i < 35; i++) order(engine, `abest${i}`, ['a', 'best']);
      for (let i = 0; i < 1000; i++) order(engine, `best${i}`, ['best', 'x']);
      return idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0));
    };
    expect(answer({})).toEqual(['complement', 'best']);
    expect(answer({ pairPopularityExponent: 0 })).toEqual(['best', 'complement']);
  });

  test('When a best-seller is bought with A twice as often as a complement, then it still ranks first: the discount is mild (a share of the candidate\'s baskets, lift, would drop it far below)', () => {
    const answer = (config: { pairPopularityExponent?: number }) => {
      const engine = engineWith(['a', 'complement', 'best', 'x'], config);
      for (let i = 0; i < 30; i++) order(engine, `ac${i}`, ['a', 'complement']);
      for (let i = 0; i < 60; i++) order(engine, `abest${i}`, ['a', 'best']);
      for (let i = 0; i < 1000; i++) order(engine, `best${i}`, ['best', 'x']);
      return idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0));
    };
    // best: 60 · (60/63)² / 1218^0.1 = 26.7 against complement: 30 · (30/33)² / 27^0.1 = 17.8.
    expect(answer({})).toEqual(['best', 'complement']);
    expect(answer({ pairPopularityExponent: 1 })[0]).toBe('complement');
  });

  test('When a partner becomes a best-seller after an answer, then the next answer discounts it at its new basket count', () => {
    const engine = engineWith(['a', 'b', 'c', 'x']);
    for (let i = 0; i < 30; i++) order(engine, `ab${i}`, ['a', 'b']);
    for (let i = 0; i < 32; i++) order(engine, `ac${i}`, ['a', 'c']);
    // c: 32 · (32/35)² / 38^0.1 = 18.6 against b: 30 · (30/33)² / 27^0.1 = 17.8 (32 and 30 baskets are
    // at levels 10 and 9, standing for 38 and 27).
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0))).toEqual(['c', 'b']);
    for (let i = 0; i < 1000; i++) order(engine, `cx${i}`, ['c', 'x']);
    // c is now in 1,032 baskets (level 20, 1,218): 26.7 / 1218^0.1 = 13.1, below b (a remembered discount would keep c first).
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0))).toEqual(['b', 'c']);
  });

  test('When items share an order id, then they pair even across sessions; items only in other orders do not', () => {
    const engine = engineWith(['a', 'b', 'c']);
    engine.apply({ type: 'purchase', productId: 'a', sessionId: 's1', metadata: { orderId: 'o1' }, timestamp: T0 });
    engine.apply({ type: 'purchase', productId: 'b', sessionId: 's2', metadata: { orderId: 'o1' }, timestamp: T0 });
    engine.apply({ type: 'purchase', productId: 'c', sessionId: 's1', metadata: { orderId: 'o2' }, timestamp: T0 });
    expect(neighborIds(engine.baskets, engine.catalog.denseOf('a')!).map((d) => engine.catalog.idOf(d))).toEqual(['b']);
  });

  test('When items are added to one session cart, then they pair; views do not', () => {
    const engine = engineWith(['a', 'b', 'c']);
    engine.apply({ type: 'add_to_cart', productId: 'a', sessionId: 's1', timestamp: T0 });
    engine.apply({ type: 'view', productId: 'c', sessionId: 's1', timestamp: T0 });
    engine.apply({ type: 'add_to_cart', productId: 'b', sessionId: 's1', timestamp: T0 });
    const result = ask(engine, { strategy: 'bought-together', productId: 'a', limit: 1 }, T0);
    expect(idsOf(result)).toEqual(['b']);
  });

  test('When one pair is in three carts and another in two orders, then the ordered pair ranks first: a cart counts cartPairWeight (0.5) of an order', () => {
    const engine = engineWith(['a', 'carted', 'ordered']);
    for (let i = 0; i < 3; i++) {
      engine.apply({ type: 'add_to_cart', productId: 'a', sessionId: `cart${i}`, timestamp: T0 });
      engine.apply({ type: 'add_to_cart', productId: 'carted', sessionId: `cart${i}`, timestamp: T0 });
    }
    order(engine, 'o1', ['a', 'ordered'], T0);
    order(engine, 'o2', ['a', 'ordered'], T0);
    const dense = (id: string) => engine.catalog.denseOf(id)!;
    const decayed = (id: string) => engine.baskets.together(dense('a'), dense(id)) * engine.baskets.scaleAt(T0);
    expect(decayed('carted')).toBeCloseTo(1.5, 6);
    expect(decayed('ordered')).toBeCloseTo(2, 6);
    expect(engine.baskets.groupsOf(dense('carted'))).toBe(1.5);
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0))).toEqual(['ordered', 'carted']);
  });

  test('When two items are carted and then bought in one session, then the pair counts as a cart and as an order (no order id: the session is the order)', () => {
    const engine = engineWith(['a', 'b'], { cartPairWeight: 0.25 });
    for (const type of ['add_to_cart', 'purchase'] as const) {
      for (const productId of ['a', 'b']) engine.apply({ type, productId, sessionId: 's1', timestamp: T0 });
    }
    const [a, b] = [engine.catalog.denseOf('a')!, engine.catalog.denseOf('b')!];
    expect(engine.baskets.together(a, b) * engine.baskets.scaleAt(T0)).toBeCloseTo(1.25, 6);
    expect([...engine.basketSlots.oldestFirst()].map((slot) => engine.basketSlots.keyOf(slot))).toEqual(['c:s1', 'p:s1']);
  });

  test('When an item is added to the same basket twice, then the pair counts once', () => {
    const { model: baskets, add } = keyedModel(10, 100, 100);
    add('o1', 1, T0);
    add('o1', 2, T0);
    add('o1', 2, T0);
    add('o1', 1, T0);
    expect(baskets.together(1, 2)).toBe(1);
    expect(baskets.groupsOf(2)).toBe(1);
    expect(baskets.groupCount).toBe(1);
  });

  test('When an item gains more than twice maxNeighbors neighbours, then only its strongest maxNeighbors are kept', () => {
    const { model: baskets, add } = keyedModel(3, 1000, 100);
    for (let i = 0; i < 5; i++) for (const other of [10, 11, 12]) add(`strong-${other}-${i}`, 1, T0), add(`strong-${other}-${i}`, other, T0);
    for (let other = 20; other < 24; other++) add(`weak-${other}`, 1, T0), add(`weak-${other}`, other, T0);
    expect(neighborIds(baskets, 1).length).toBeLessThanOrEqual(6);
    for (const strong of [10, 11, 12]) expect(baskets.together(1, strong)).toBe(5);
  });

  test('When the context product has no basket partners, then the chain falls through to the next strategy', () => {
    const engine = engineWith([product('a', { title: 'Anvil', price: null }), product('b', { title: 'Bell', price: '5.00' })]);
    engine.apply({ type: 'purchase', productId: 'b', sessionId: 's1', timestamp: T0 });
    const result = ask(engine, { strategy: 'bought-together', productId: 'a', limit: 1 }, T0);
    expect(result.strategy).toBe('bought-together');
    expect(strategiesOf(result)).toEqual(['trending']);
    expect(idsOf(result)).toEqual(['b']);
  });

  test('When two partners were bought with A equally often, then the one like A by content ranks first (ties would go by id: other before twin); a much stronger pair still beats content', () => {
    const products = [
      product('a', { title: 'Red retrospot lunch bag' }),
      product('twin', { title: 'Red retrospot jumbo bag' }),
      product('other', { title: 'Wooden owl clock' }),
      product('strong', { title: 'Glass star lantern' }),
    ];
    const engine = engineWith(products);
    for (let i = 0; i < 3; i++) order(engine, `twin${i}`, ['a', 'twin']);
    for (let i = 0; i < 3; i++) order(engine, `other${i}`, ['a', 'other']);
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0))).toEqual(['twin', 'other']);
    for (let i = 0; i < 20; i++) order(engine, `strong${i}`, ['a', 'strong']);
    const result = ask(engine, { strategy: 'bought-together', productId: 'a', limit: 3 }, T0);
    expect(idsOf(result)).toEqual(['strong', 'twin', 'other']);
    expect(strategiesOf(result)).toEqual(['bought-together', 'bought-together', 'bought-together']);
    // A product much like A by content but never in its baskets outranks a weak partner, labelled similar.
    engine.upsertProduct(product('cousin', { title: 'Red retrospot lunch box' }));
    const wider = ask(engine, { strategy: 'bought-together', productId: 'a', limit: 4 }, T0);
    expect(idsOf(wider)).toEqual(['strong', 'twin', 'cousin', 'other']);
    expect(strategiesOf(wider)).toEqual(['bought-together', 'bought-together', 'similar', 'bought-together']);
    expect(wider.modelLevel).toBe(2);
  });

  test("When a product's only pair is from one basket, then that partner scores as a fraction of a confident pair and a close content match ranks above it; relative to the best however weak, the one-off pair would be first", () => {
    const answer = (config: { pairConfidenceBaskets?: number; pairContentWeight?: number }) => {
      const engine = engineWith([product('a', { title: 'Red retrospot lunch bag' }), product('once', { title: 'Wooden owl clock' }), product('cousin', { title: 'Red retrospot lunch box' })], config);
      order(engine, 'o1', ['a', 'once'], T0);
      return ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0);
    };
    const confident = answer({});
    expect(idsOf(confident)).toEqual(['cousin', 'once']);
    expect(strategiesOf(confident)).toEqual(['similar', 'bought-together']);
    const relative = answer({ pairConfidenceBaskets: 0 });
    expect(idsOf(relative)).toEqual(['once', 'cousin']);
    // Each score is the relative pair score plus the same content term (pairContentWeight × cosine):
    // 1 + content relative to itself, and (1 + f) · (1/4)² / 2^(1/40) ÷ a pair of k baskets
    // today, (k + f · k) · (k/(k+3))², for the confident one (f the pair floor, k pairConfidenceBaskets).
    const { pairFloor: floor, pairConfidenceBaskets: k } = DEFAULT_ENGINE_CONFIG;
    expect(confidentPairScore(k, floor)).toBeCloseTo(k * (1 + floor) * (k / (k + 3)) ** 2, 10);
    const content = relative.items[0]!.score - 1;
    expect(confident.items[1]!.score - content).toBeCloseTo(pairScore(1, 1, 1, floor) / confidentPairScore(k, floor), 4);
    // With no content weight the one-off pair ranks first, at its pair score alone; the cousin
    // comes after it from the chain's similar.
    const pairsOnly = answer({ pairContentWeight: 0 });
    expect(idsOf(pairsOnly)).toEqual(['once', 'cousin']);
    expect(strategiesOf(pairsOnly)).toEqual(['bought-together', 'similar']);
    expect(pairsOnly.items[0]!.score).toBeCloseTo(confident.items[1]!.score - content, 10);
  });

  test('When a product has a pair stronger than a confident one, then its partners are scored relative to that best as before', () => {
    const answer = (config: { pairConfidenceBaskets?: number }) => {
      const engine = engineWith(['a', 'b', 'c'], config);
      for (let i = 0; i < 8; i++) order(engine, `ab${i}`, ['a', 'b']);
      order(engine, 'ac', ['a', 'c']);
      return ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0);
    };
    expect(pairScore(8, 8, 8, DEFAULT_ENGINE_CONFIG.pairFloor)).toBeGreaterThan(confidentPairScore(DEFAULT_ENGINE_CONFIG.pairConfidenceBaskets, DEFAULT_ENGINE_CONFIG.pairFloor));
    const result = answer({});
    expect(idsOf(result)).toEqual(['b', 'c']);
    expect(result.items).toEqual(answer({ pairConfidenceBaskets: 0 }).items);
    expect(answer({ pairConfidenceBaskets: 20 }).items[0]!.score).toBeLessThan(result.items[0]!.score);
  });

  test('When pairs are seen once, then they score far below pairs seen often (shrinkage toward significance)', () => {
    // A candidate in one basket is at level 0, standing for 2^(1/4) baskets: discount 2^(1/40).
    expect(pairScore(1, 1, 1, 0)).toBeCloseTo(1 / 16 / 2 ** (1 / 40), 10);
    expect(pairScore(30, 30, 30, 0)).toBeGreaterThan(pairScore(35, 35, 1000, 0));
    expect(pairScore(10, 10, 10, 0) / 10).toBeGreaterThan(pairScore(1, 1, 10, 0) / 1);
    // Significance comes from every basket, however old: the same decayed count is surer from more baskets.
    expect(pairScore(1, 8, 10, 0)).toBeGreaterThan(3 * pairScore(1, 1, 10, 0));
    // The floor adds its share of the undecayed count: (0.5 + 0.1 · 4) · (4/7)².
    expect(pairScore(0.5, 4, 1, 0.1)).toBeCloseTo((0.9 * (4 / 7) ** 2) / 2 ** (1 / 40), 10);
  });

  test('When candidates sit in baskets within one level (a factor √2), then their discount is the same, within 1.8 % of n^0.1; across levels it grows', () => {
    expect(pairScore(2, 2, 4, 0)).toBe(pairScore(2, 2, 5, 0)); // levels floor(2·log2 n): 4 and 4
    expect(pairScore(2, 2, 6, 0)).toBeLessThan(pairScore(2, 2, 5, 0)); // level 5
    for (const n of [1, 2, 3, 7, 30, 1000, 1e6]) {
      const exact = ((2 * (2 / 5) ** 2) / n ** 0.1);
      expect(Math.abs(pairScore(2, 2, n, 0) / exact - 1)).toBeLessThan(0.018);
    }
  });

  test('When a pair was bought in ten baskets two years ago and another once today, then the floor keeps the old pair first; with no floor it has faded below', () => {
    const twoYears = 730 * 24 * HOUR; // twelve 60-day half-lives: 10 baskets decay to 0.0024
    const answer = (pairFloor: number) => {
      const engine = engineWith(['a', 'season', 'fresh'], { pairHalfLifeMs: 60 * 24 * HOUR, pairFloor });
      for (let i = 0; i < 10; i++) order(engine, `season${i}`, ['a', 'season'], T0 - twoYears);
      order(engine, 'fresh', ['a', 'fresh'], T0 - HOUR);
      return idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0));
    };
    // season: (0.0024 + 0.03 · 10) · (10/13)² / 10^0.1 = 0.14 against fresh: (1 + 0.03) · (1/4)² = 0.064.
    expect(answer(0.03)).toEqual(['season', 'fresh']);
    // season: 0.0024 · (10/13)² / 10^0.1 = 0.001.
    expect(answer(0)).toEqual(['fresh', 'season']);
  });

  test('When a pair was bought in four baskets half a year ago and another once today, then the old pair ranks first: its evidence does not fade, only its weight', () => {
    const engine = engineWith(['a', 'old', 'fresh'], { pairHalfLifeMs: 60 * 24 * HOUR, pairFloor: 0 });
    const halfYear = 180 * 24 * HOUR; // three half-lives: the old pair's decayed count is 4/8 = 0.5
    for (let i = 0; i < 4; i++) order(engine, `old${i}`, ['a', 'old'], T0 - halfYear);
    order(engine, 'fresh', ['a', 'fresh'], T0 - HOUR);
    const [a, old, fresh] = ['a', 'old', 'fresh'].map((id) => engine.catalog.denseOf(id)!) as [number, number, number];
    expect(engine.baskets.together(a, old) * engine.baskets.scaleAt(T0)).toBeCloseTo(0.5, 4);
    expect(engine.baskets.total(a, old)).toBe(4);
    expect(engine.baskets.total(a, fresh)).toBe(1);
    // old: 0.5 · (4/7)² / 4^0.1 = 0.14; fresh: 1.0 · (1/4)² = 0.06 (a count shrunk after decay would rank fresh first: 0.07 against 0.25).
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0))).toEqual(['old', 'fresh']);
  });
});
