import { describe, expect, test } from 'vitest';
import type { EventType } from '../../../src/engine/event.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import fc from 'fast-check';
import { LruSlots } from '../../../src/engine/lru-slots.js';
import { ShopperAffinities } from '../../../src/engine/shopper-affinity.js';
import { ReferenceAffinities } from '../../reference/shopper-state.js';
import { ask, DAY, engineWith, idsOf, product, strategiesOf, T0 } from '../fixtures.js';

function itemsOf(affinities: ShopperAffinities, slot: number): [number, number][] {
  const start = affinities.start(slot);
  return Array.from({ length: affinities.size(slot) }, (_, k) => [affinities.items[start + k]!, affinities.values[start + k]!]);
}

function totalsOf(affinities: ShopperAffinities, slot: number): [number, number][] {
  const start = affinities.start(slot);
  return Array.from({ length: affinities.size(slot) }, (_, k) => [affinities.items[start + k]!, affinities.totals[start + k]!]);
}

function purchasesOf(affinities: ShopperAffinities, slot: number): number[] {
  const out: number[] = [];
  affinities.purchasesOf(slot, (id) => out.push(id));
  return out;
}

function act(engine: ShopEngine, customerId: string, type: EventType, productId: string, t = T0 - DAY): void {
  engine.apply({ type, productId, sessionId: `s-${customerId}`, customerId, timestamp: t });
}

describe('personalized', () => {
  test('When shoppers who bought A also bought B, then a shopper who bought A gets B first and never A again', () => {
    const engine = engineWith(['a', 'b', 'c', 'd']);
    for (let i = 0; i < 5; i++) {
      act(engine, `peer${i}`, 'purchase', 'a');
      act(engine, `peer${i}`, 'purchase', 'b');
    }
    act(engine, 'other', 'purchase', 'c');
    act(engine, 'other', 'purchase', 'd');
    act(engine, 'me', 'purchase', 'a');
    const result = ask(engine, { strategy: 'personalized', customerId: 'me', limit: 1 }, T0);
    expect(idsOf(result)).toEqual(['b']);
    expect(strategiesOf(result)).toEqual(['personalized']);
    expect(result.modelLevel).toBe(3);
    const all = ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0);
    expect(idsOf(all)).not.toContain('a');
  });

  test('When the catalog marks a bought product repurchasable, then it may come back', () => {
    const engine = engineWith([product('a', { repurchasable: true }), 'b']);
    for (let i = 0; i < 3; i++) {
      act(engine, `peer${i}`, 'purchase', 'a');
      act(engine, `peer${i}`, 'purchase', 'b');
    }
    act(engine, 'me', 'purchase', 'b');
    act(engine, 'me', 'purchase', 'a');
    const result = ask(engine, { strategy: 'personalized', customerId: 'me', limit: 2 }, T0);
    expect(idsOf(result)).toEqual(['a']);
  });

  test('When a shopper dismissed the best candidate, then the next one is recommended instead', () => {
    const engine = engineWith(['a', 'b', 'c']);
    for (let i = 0; i < 4; i++) act(engine, `peer${i}`, 'purchase', 'a'), act(engine, `peer${i}`, 'purchase', 'b');
    act(engine, 'peer9', 'purchase', 'a');
    act(engine, 'peer9', 'purchase', 'c');
    act(engine, 'me', 'view', 'a');
    act(engine, 'me', 'dismiss', 'b');
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 1 }, T0))).toEqual(['c']);
  });

  test('When the shopper recently viewed X but long ago viewed Y, then X-neighbours rank above Y-neighbours', () => {
    const engine = engineWith(['x', 'y', 'nx', 'ny']);
    for (let i = 0; i < 3; i++) act(engine, `px${i}`, 'purchase', 'x'), act(engine, `px${i}`, 'purchase', 'nx');
    for (let i = 0; i < 3; i++) act(engine, `py${i}`, 'purchase', 'y'), act(engine, `py${i}`, 'purchase', 'ny');
    act(engine, 'me', 'view', 'y', T0 - 120 * DAY);
    act(engine, 'me', 'view', 'x', T0 - DAY);
    const ranked = idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0));
    expect(ranked.indexOf('nx')).toBeGreaterThanOrEqual(0);
    expect(ranked.indexOf('nx')).toBeLessThan(ranked.indexOf('ny'));
  });

  test('When a pair joins a long shopper history, then it weighs less than a pair from a focused shopper', () => {
    const engine = engineWith(['a', 'focused', 'broad', ...Array.from({ length: 20 }, (_, i) => `f${i}`)]);
    act(engine, 'focus', 'purchase', 'a');
    act(engine, 'focus', 'purchase', 'focused');
    act(engine, 'wholesaler', 'purchase', 'a');
    for (let i = 0; i < 20; i++) act(engine, 'wholesaler', 'purchase', `f${i}`);
    act(engine, 'wholesaler', 'purchase', 'broad');
    act(engine, 'me', 'purchase', 'a');
    const ranked = idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 24 }, T0));
    expect(ranked.indexOf('focused')).toBeLessThan(ranked.indexOf('broad'));
    expect(ranked.indexOf('broad')).toBeGreaterThan(0);
  });

  test('When a shopper has no history, then auto picks trending and personalized falls through to trending', () => {
    const engine = engineWith(['a', 'b']);
    act(engine, 'someone', 'purchase', 'b');
    expect(ask(engine, { customerId: 'new' }, T0).strategy).toBe('trending');
    const result = ask(engine, { strategy: 'personalized', customerId: 'new', limit: 1 }, T0);
    expect(strategiesOf(result)).toEqual(['trending']);
  });

  test('When a shopper only bought something, then the auto strategy is personalized', () => {
    const engine = engineWith(['a', 'b']);
    act(engine, 'buyer', 'purchase', 'a');
    expect(ask(engine, { customerId: 'buyer' }, T0).strategy).toBe('personalized');
  });

  test('When a shopper touches more products than the bound, then the weakest affinity is dropped', () => {
    const affinities = new ShopperAffinities(new LruSlots(10), 30 * DAY, 3, 10);
    affinities.record(0, 1, 1, T0, false);
    affinities.record(0, 2, 6, T0, true);
    affinities.record(0, 3, 4, T0, false);
    affinities.record(0, 4, 2, T0, false);
    expect(itemsOf(affinities, 0).map(([id]) => id)).toEqual([2, 3, 4]);
    expect(purchasesOf(affinities, 0)).toEqual([2]);
  });

  test('When affinity is recorded one half-life apart, then the older one counts half', () => {
    const affinities = new ShopperAffinities(new LruSlots(10), 10 * DAY, 10, 10);
    affinities.record(0, 1, 4, T0, false);
    affinities.record(0, 2, 4, T0 + 10 * DAY, false);
    const items = new Map(itemsOf(affinities, 0));
    expect(items.get(1)! / items.get(2)!).toBeCloseTo(0.5, 6);
  });

  test('When shoppers record affinities in any order, then every shopper equals the Map reference (values, order, purchases, bounds)', () => {
    const record = fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 12 }), fc.constantFrom(1, 2, 3, 4, 6), fc.integer({ min: -5, max: 400 }), fc.boolean());
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 4 }), fc.array(record, { maxLength: 200 }), (maxShoppers, perShopper, purchases, log) => {
        const slots = new LruSlots(maxShoppers);
        const affinities = new ShopperAffinities(slots, 10 * DAY, perShopper, purchases);
        const reference = new ReferenceAffinities(maxShoppers, 10 * DAY, perShopper, purchases);
        for (const [shopper, item, weight, day, purchase] of log) {
          affinities.record(slots.touch(`c:${shopper}`), item, weight, T0 + day * DAY, purchase);
          reference.record(`c:${shopper}`, item, weight, T0 + day * DAY, purchase);
        }
        for (const [key, expected] of reference.shoppers.entries) {
          const slot = slots.slotOf(key);
          expect(itemsOf(affinities, slot)).toEqual([...expected.items]);
          expect(totalsOf(affinities, slot)).toEqual([...expected.totals]);
          expect(purchasesOf(affinities, slot)).toEqual(expected.purchases);
        }
        expect(slots.size).toBe(reference.shoppers.entries.size);
      }),
    );
  });

  test('When the shopper viewed products in this session, then personalized leaves them out (recently-viewed shows them), and another session of theirs still gets them', () => {
    const engine = engineWith(['a', 'b', 'c', 'd']);
    for (let i = 0; i < 5; i++) {
      act(engine, `peer${i}`, 'purchase', 'a');
      act(engine, `peer${i}`, 'purchase', 'b');
      act(engine, `peer${i}`, 'purchase', 'c');
    }
    act(engine, 'me', 'purchase', 'a');
    engine.apply({ type: 'view', productId: 'b', sessionId: 'now', customerId: 'me', timestamp: T0 - 60_000 });
    const here = ask(engine, { strategy: 'personalized', customerId: 'me', sessionId: 'now', limit: 8 }, T0);
    expect(idsOf(here)).not.toContain('b');
    expect(idsOf(here)[0]).toBe('c');
    expect(idsOf(ask(engine, { strategy: 'recently-viewed', customerId: 'me', sessionId: 'now', limit: 1 }, T0))).toEqual(['b']);
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', sessionId: 'later', limit: 8 }, T0))).toContain('b');
  });

  test('When recency is off, then the history of the shopper weighs each product by its undecayed total: an old strong interest outranks a recent light one', () => {
    const engine = engineWith(['old', 'new', 'with-old', 'with-new']);
    for (let i = 0; i < 5; i++) {
      act(engine, `po${i}`, 'purchase', 'old');
      act(engine, `po${i}`, 'purchase', 'with-old');
      act(engine, `pn${i}`, 'purchase', 'new');
      act(engine, `pn${i}`, 'purchase', 'with-new');
    }
    // Carted 'old' three times long ago (weight 12); viewed 'new' once yesterday (weight 1).
    for (let day = 0; day < 3; day++) act(engine, 'me', 'add_to_cart', 'old', T0 - (200 + day) * DAY);
    act(engine, 'me', 'view', 'new');
    engine.ease.blend = { ...engine.ease.blend, momentumExponent: 0 };
    const first = () => idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0)).filter((id) => id.startsWith('with-'))[0];
    expect(first()).toBe('with-new');
    engine.setRecency('off');
    expect(first()).toBe('with-old');
  });

  test('When a weaker candidate sells fast now and a stronger one stopped selling, then momentum lifts the weaker one first even when it is offered after the stronger one', () => {
    const engine = engineWith(['a', 'stopped', 'rising']);
    // Six peers bought a with 'stopped' 200 days ago: a strong pair, no recent sales.
    for (let i = 0; i < 6; i++) {
      act(engine, `peer${i}`, 'purchase', 'a', T0 - 200 * DAY);
      act(engine, `peer${i}`, 'purchase', 'stopped', T0 - 200 * DAY);
    }
    // One peer pairs a with 'rising', which ten other shoppers bought this week.
    act(engine, 'one', 'view', 'a');
    act(engine, 'one', 'view', 'rising');
    for (let i = 0; i < 10; i++) act(engine, `buyer${i}`, 'purchase', 'rising', T0 - 2 * DAY);
    act(engine, 'me', 'purchase', 'a');
    const first = () => idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 1 }, T0));
    engine.ease.blend = { ...engine.ease.blend, momentumExponent: 0 };
    expect(first()).toEqual(['stopped']);
    engine.ease.blend = { ...engine.ease.blend, momentumExponent: 1 };
    expect(first()).toEqual(['rising']);
  });
});
