import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { AnswerCache } from '../../../src/engine/answer-cache.js';
import { DenseSet } from '../../../src/engine/dense-set.js';
import { CART_POPULARITY_EXPONENT, type CartBlend } from '../../../src/engine/ease/ease-blend.js';
import { fitInput } from '../../../src/engine/ease/fit-input.js';
import { fitEase } from '../../../src/engine/ease/solver.js';
import { PickList } from '../../../src/engine/pick-list.js';
import { recommend, type Recommendation } from '../../../src/engine/recommend.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { CART_CONTENT_NEIGHBORS, cartTogether } from '../../../src/engine/strategies/cart-together.js';
import { referenceCartScores } from '../../reference/cart.js';
import { ask, DAY, engineWith, HOUR, idsOf, product, strategiesOf, T0 } from '../fixtures.js';

function order(engine: ShopEngine, orderId: string, productIds: readonly string[], t = T0 - HOUR, customerId?: string): void {
  for (const productId of productIds) {
    engine.apply({ type: 'purchase', productId, sessionId: `s-${orderId}`, metadata: { orderId }, timestamp: t, ...(customerId === undefined ? {} : { customerId }) });
  }
}

function refit(engine: ShopEngine, lambda = 2): void {
  const input = fitInput(engine, 100);
  if (input === undefined) return;
  const rows = fitEase(input.items.length, input.histories, lambda, 16);
  if (rows !== undefined) engine.installEase({ items: input.items, rows });
}

const IDS = Array.from({ length: 12 }, (_, i) => `p${i}`);
const WORDS = ['red', 'blue', 'mug', 'bag', 'lunch', 'tin'];

describe('bought-together over a cart', () => {
  test('When one product goes with two of the cart\'s products and another goes strongly with one, then the one that goes with the cart as a whole comes first (a union of per-product lists would put the other first)', () => {
    const engine = engineWith(['a', 'b', 'x', 'y', 'z']);
    for (let i = 0; i < 20; i++) order(engine, `ax${i}`, ['a', 'x']);
    for (let i = 0; i < 20; i++) order(engine, `bx${i}`, ['b', 'x']);
    for (let i = 0; i < 30; i++) order(engine, `ay${i}`, ['a', 'y']);
    for (let i = 0; i < 30; i++) order(engine, `bz${i}`, ['b', 'z']);
    expect(idsOf(ask(engine, { strategy: 'bought-together', productId: 'a', limit: 2 }, T0))).toEqual(['y', 'x']);
    const cart = ask(engine, { strategy: 'bought-together', productIds: ['a', 'b'], limit: 3 }, T0);
    expect(idsOf(cart)[0]).toBe('x');
    expect(strategiesOf(cart)[0]).toBe('bought-together');
    expect(cart.modelLevel).toBe(2);
  });

  test('When a best-seller goes with the cart twice as strongly as a product in a hundredth of its baskets, then the rarer comes first (the blend is discounted by n^β as well as the pairs)', () => {
    const engine = engineWith(['a', 'b', 'x', 'y', 'w']);
    for (let i = 0; i < 4; i++) order(engine, `abx${i}`, ['a', 'b', 'x']);
    for (let i = 0; i < 8; i++) order(engine, `aby${i}`, ['a', 'b', 'y']);
    for (let i = 0; i < 400; i++) order(engine, `yw${i}`, ['y', 'w']);
    expect(idsOf(ask(engine, { strategy: 'bought-together', productIds: ['a', 'b'], limit: 2 }, T0))).toEqual(['x', 'y']);
  });

  test('When a purchase is applied, then the next cart answer reflects it (the pair part is the real-time basket model)', () => {
    const engine = engineWith(['a', 'b', 'x', 'y']);
    for (let i = 0; i < 5; i++) order(engine, `abx${i}`, ['a', 'b', 'x']);
    order(engine, 'ay', ['a', 'y']);
    const before = idsOf(ask(engine, { strategy: 'bought-together', productIds: ['a', 'b'], limit: 2 }, T0));
    expect(before).toEqual(['x', 'y']);
    for (let i = 0; i < 20; i++) order(engine, `aby${i}`, ['a', 'b', 'y'], T0 - 60_000);
    expect(idsOf(ask(engine, { strategy: 'bought-together', productIds: ['a', 'b'], limit: 2 }, T0))).toEqual(['y', 'x']);
  });

  test('When the cart comes in any order, with productId beside productIds, or as one product, then the answer is the same; the cart\'s products never come back', () => {
    const engine = engineWith(['a', 'b', 'c', 'x', 'y']);
    order(engine, 'o1', ['a', 'b', 'x']);
    order(engine, 'o2', ['b', 'c', 'y']);
    order(engine, 'o3', ['a', 'c', 'x', 'y']);
    const answer = (request: { productId?: string; productIds?: string[] }) => ask(engine, { strategy: 'bought-together', limit: 8, ...request }, T0);
    const first = answer({ productIds: ['a', 'b', 'c'] });
    expect(idsOf(first).some((id) => ['a', 'b', 'c'].includes(id))).toBe(false);
    expect(answer({ productIds: ['c', 'a', 'b'] })).toEqual(first);
    expect(answer({ productId: 'b', productIds: ['c', 'a'] })).toEqual(first);
    expect(answer({ productId: 'a', productIds: ['a', 'b', 'c', 'b'] })).toEqual(first);
    expect(answer({ productIds: ['a'] }).items).toEqual(answer({ productId: 'a' }).items);
    expect(answer({ productIds: ['a'] }).cart).toBeUndefined();
  });

  test('When a cart names products the catalog lacks or no event ever paired, then meta counts the products named and the ones the models knew', () => {
    const engine = engineWith(['a', 'b', 'lonely', 'x']);
    order(engine, 'o1', ['a', 'x']);
    order(engine, 'o2', ['b', 'x']);
    const result = ask(engine, { productIds: ['a', 'b', 'lonely', 'missing'] }, T0);
    expect(result.strategy).toBe('bought-together');
    expect(result.cart).toEqual({ products: 4, known: 2 });
    expect(idsOf(result)[0]).toBe('x');
  });

  test('When only one of the cart\'s products is in the catalog, then the answer is that product\'s', () => {
    const engine = engineWith(['a', 'x', 'y']);
    order(engine, 'o1', ['a', 'x']);
    order(engine, 'o2', ['a', 'y']);
    order(engine, 'o3', ['a', 'y']);
    expect(ask(engine, { strategy: 'bought-together', productIds: ['a', 'gone'] }, T0).items).toEqual(ask(engine, { strategy: 'bought-together', productId: 'a' }, T0).items);
  });

  test('When a cart answer is cached, then a purchase pairing a cart product or an EASE refit makes it stale, and a purchase elsewhere in the store does not', () => {
    const engine = engineWith(['a', 'b', 'x', 'y', 'p', 'q']);
    order(engine, 'o1', ['a', 'x']);
    order(engine, 'o2', ['b', 'x', 'y']);
    const cache = new AnswerCache<Recommendation>(1 << 20, 60_000, () => 100);
    const request = { strategy: 'bought-together' as const, productIds: ['a', 'b'], limit: 4, exclude: [] };
    const remember = () => cache.set(engine, 'cart', T0, recommend(engine, request, T0), engine.scratch.reads);
    remember();
    order(engine, 'o3', ['p', 'q']);
    expect(cache.get(engine, 'cart', T0)).toBeDefined();
    order(engine, 'o4', ['a', 'q']);
    expect(cache.get(engine, 'cart', T0)).toBeUndefined();
    remember();
    refit(engine);
    expect(cache.get(engine, 'cart', T0)).toBeUndefined();
  });

  test('When a cart\'s products have no basket partner, then its content neighbours come from bought-together and its co-viewed products from the similar backfill, each once', () => {
    const engine = engineWith([
      product('a', { title: 'red lunch bag' }),
      product('b', { title: 'blue lunch bag' }),
      product('like', { title: 'green lunch bag' }),
      product('viewed', { title: 'garden hose' }),
    ]);
    for (let i = 0; i < 3; i++) {
      engine.apply({ type: 'view', productId: 'a', sessionId: `v${i}`, timestamp: T0 - HOUR });
      engine.apply({ type: 'view', productId: 'viewed', sessionId: `v${i}`, timestamp: T0 - HOUR });
    }
    const result = ask(engine, { strategy: 'bought-together', productIds: ['a', 'b'], limit: 8 }, T0);
    expect(idsOf(result).slice(0, 2)).toEqual(['like', 'viewed']);
    expect(result.items.slice(0, 2).map((i) => [i.strategy, i.product.id])).toEqual([['similar', 'like'], ['similar', 'viewed']]);
    expect(result.modelLevel).toBe(0);
    expect(new Set(idsOf(result)).size).toBe(idsOf(result).length);
  });

  test('When similar is asked for a cart, then each product\'s row is summed: a product like both comes first', () => {
    const engine = engineWith([
      product('a', { title: 'red lunch bag' }),
      product('b', { title: 'blue lunch tin' }),
      product('both', { title: 'red lunch tin' }),
      product('one', { title: 'red lunch bag spare' }),
    ]);
    const result = ask(engine, { strategy: 'similar', productIds: ['a', 'b'], limit: 2 }, T0);
    expect(idsOf(result)[0]).toBe('both');
  });

  test('When a cart\'s products each have more content neighbours than a cart takes, then only each one\'s closest CART_CONTENT_NEIGHBORS come (the reference agrees)', () => {
    const words = ['red', 'blue', 'green', 'mug', 'bag', 'tin', 'lunch', 'box'];
    const ids = Array.from({ length: 60 }, (_, i) => `q${i}`);
    const engine = engineWith(ids.map((id, i) => product(id, { title: `${words[i % 8]} ${words[(i >> 3) % 8]} ${words[(i * 5) % 8]}` })));
    const cart = [0, 1];
    const blocked = new DenseSet();
    for (const p of cart) blocked.add(p);
    const pick = new PickList(200, engine.catalog, blocked);
    engine.scratch.reads.reset();
    cartTogether({ engine, cart, shoppers: [], now: T0 }, pick);
    const closest = new Set<number>();
    for (const p of cart) {
      const count = engine.content.neighbors(p, engine.compareIds);
      expect(count).toBeGreaterThan(CART_CONTENT_NEIGHBORS);
      for (let k = 0; k < CART_CONTENT_NEIGHBORS; k++) closest.add(engine.content.neighborIds[engine.content.start(p) + k]!);
    }
    expect(new Set(pick.ids)).toEqual(new Set([...closest].filter((id) => !cart.includes(id))));
    const reference = referenceCartScores(engine, cart, T0, engine.ease.cartBlend, CART_POPULARITY_EXPONENT);
    expect(new Set([...reference.keys()])).toEqual(new Set([...closest].filter((id) => !cart.includes(id))));
  });

  test('When random shops, carts, fits and blends meet, then the answer is the reference\'s ranking of the cart scores', () => {
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 2, maxLength: 5 }), fc.integer({ min: 0, max: 90 })), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)), { minLength: IDS.length, maxLength: IDS.length }),
        fc.uniqueArray(fc.constantFrom(...IDS), { minLength: 2, maxLength: 5 }),
        fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 3 }),
        fc.record({ easeWeight: fc.constantFrom(0, 1), pairWeight: fc.constantFrom(0, 0.25, 1), contentWeight: fc.constantFrom(0, 0.3, 1) }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 1, max: 10 }),
        (orders, titles, cartIds, excluded, blend: CartBlend, fitted, timeless, limit) => {
          const engine = engineWith(IDS.map((id, i) => product(id, { title: `${titles[i]![0]} ${titles[i]![1]}` })));
          if (timeless) engine.setRecency('off');
          orders.forEach(([items, daysAgo], i) => order(engine, `o${i}`, items, T0 - daysAgo * DAY, `c${i % 4}`));
          if (fitted) refit(engine);
          engine.ease.cartBlend = blend;
          const cart = cartIds.map((id) => engine.catalog.denseOf(id)!).sort((x, y) => x - y);
          const blocked = new DenseSet();
          for (const id of [...cart, ...excluded.map((e) => engine.catalog.denseOf(e)!)]) blocked.add(id);
          const pick = new PickList(limit, engine.catalog, blocked);
          engine.scratch.reads.reset();
          cartTogether({ engine, cart, shoppers: [], now: T0 }, pick);

          const reference = referenceCartScores(engine, cart, T0, blend, CART_POPULARITY_EXPONENT);
          const eligible = [...reference].filter(([id, s]) => s.parts > 0 && !cart.includes(id) && !excluded.includes(engine.catalog.idOf(id)!));
          expect(pick.ids.length).toBe(Math.min(limit, eligible.length));
          pick.ids.forEach((id, r) => {
            const expected = reference.get(id)!;
            expect(pick.scores[r]!).toBeCloseTo(expected.score, 10);
            expect(pick.strategies[r]).toBe(expected.paired || expected.eased ? 'bought-together' : 'similar');
            if (r > 0) expect(pick.scores[r]!).toBeLessThanOrEqual(pick.scores[r - 1]! + 1e-12);
          });
          if (pick.ids.length > 0) {
            const last = pick.scores[pick.ids.length - 1]!;
            for (const [id, s] of eligible) if (!pick.ids.includes(id)) expect(s.score).toBeLessThanOrEqual(last + 1e-9);
            compared++;
          }
          // The cart's own products are never offered, nor what the request excluded.
          for (const id of pick.ids) expect(blocked.has(id) && !pick.ids.includes(id)).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
    expect(compared).toBeGreaterThan(150);
  });
});
