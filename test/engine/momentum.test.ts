import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { EventType } from '../../src/engine/event.js';
import { CART_SALE, MAX_MOMENTUM, MIN_MOMENTUM, SALES_PER_UNIT, SalesMomentum } from '../../src/engine/momentum.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { referenceMomentum, type Sale } from '../reference/momentum.js';
import { ask, DAY, engineWith, HOUR, idsOf, T0 } from './fixtures.js';

let customers = 0;

/** Each sale from a customer of its own (one shopper's counts are capped per day). */
function sell(engine: ShopEngine, productId: string, t: number, type: EventType = 'purchase'): void {
  const customerId = `k${customers++}`;
  engine.apply({ type, productId, sessionId: `s-${customerId}`, customerId, timestamp: t });
}

function buy(engine: ShopEngine, customerId: string, productIds: string[], t: number): void {
  for (const productId of productIds) engine.apply({ type: 'purchase', productId, sessionId: `s-${customerId}`, customerId, timestamp: t });
}

const momentumOf = (engine: ShopEngine, id: string, now: number, exponent = 1) => engine.sales.momentum(engine.catalog.denseOf(id)!, engine.sales.scalesAt(now), exponent);
const HALF_LIFE = 14 * DAY;

describe('momentum', () => {
  test('When one product sold much last year and another sells now, then the one selling now has the higher momentum, each within the clip; exponent 0 leaves every score as it is', () => {
    const engine = engineWith(['old', 'new', 'never']);
    for (let i = 0; i < 40; i++) sell(engine, 'old', T0 - 300 * DAY);
    for (let i = 0; i < 3; i++) sell(engine, 'new', T0 - DAY);
    expect(momentumOf(engine, 'new', T0)).toBeGreaterThan(1);
    expect(momentumOf(engine, 'old', T0)).toBeLessThan(0.1);
    expect(momentumOf(engine, 'old', T0)).toBeGreaterThanOrEqual(MIN_MOMENTUM);
    // 3 sales allow at most 3/2, whatever the lift.
    expect(momentumOf(engine, 'new', T0)).toBe(1.5);
    expect(momentumOf(engine, 'never', T0)).toBe(MIN_MOMENTUM);
    for (const id of ['old', 'new', 'never']) expect(momentumOf(engine, id, T0, 0)).toBe(1);
  });

  test('When a product is only viewed and clicked, then it has no sales: a shop without orders gives every product the same momentum', () => {
    const engine = engineWith(['viewed', 'quiet']);
    for (let i = 0; i < 100; i++) sell(engine, 'viewed', T0 - i * HOUR, i % 2 === 0 ? 'view' : 'click');
    expect(momentumOf(engine, 'viewed', T0)).toBe(momentumOf(engine, 'quiet', T0));
    expect(engine.sales.ever.raw(engine.catalog.denseOf('viewed')!)).toBe(0);
  });

  test('When a product is carted, then each cart counts as a fraction of a sale', () => {
    const engine = engineWith(['carted']);
    for (let i = 0; i < 8; i++) sell(engine, 'carted', T0 - DAY, 'add_to_cart');
    expect(engine.sales.ever.raw(engine.catalog.denseOf('carted')!)).toBeCloseTo(8 * CART_SALE, 9);
  });

  test('When any sales history is counted, then momentum is the plain reference computed from the list of sales, within the clip', () => {
    const saleArb = fc.record({ ageMs: fc.integer({ min: 0, max: 2 * 365 * DAY }), cart: fc.boolean() });
    fc.assert(
      fc.property(fc.array(saleArb, { maxLength: 60 }), fc.constantFrom(0, 0.25, 0.5, 1, 2), (history, exponent) => {
        const engine = engineWith(['p']);
        const sales: Sale[] = [];
        for (const s of history) {
          sell(engine, 'p', T0 - s.ageMs, s.cart ? 'add_to_cart' : 'purchase');
          sales.push({ t: T0 - s.ageMs, sales: s.cart ? CART_SALE : 1 });
        }
        const value = momentumOf(engine, 'p', T0, exponent);
        expect(value).toBeCloseTo(referenceMomentum(sales, T0, HALF_LIFE, exponent), 9);
        if (exponent > 0) {
          expect(value).toBeGreaterThanOrEqual(MIN_MOMENTUM);
          expect(value).toBeLessThanOrEqual(MAX_MOMENTUM);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('When any sales are counted, then every ceiling bound is at least the momentum its sales ever allow at any exponent and at most 2^(1/16) above that ceiling, and so after a restore', () => {
    const SalesArb = fc.array(fc.record({ product: fc.nat(5), sales: fc.constantFrom(1, CART_SALE, 0.3, 0.001, 7) }), { maxLength: 120 });
    fc.assert(
      fc.property(SalesArb, fc.constantFrom(0.5, 1, 2), (sales, exponent) => {
        const momentum = new SalesMomentum(HALF_LIFE);
        for (const [n, sale] of sales.entries()) momentum.record(sale.product, sale.sales, T0 - 400 * DAY + n * DAY);
        const restored = new SalesMomentum(HALF_LIFE);
        restored.restore(momentum.snapshot());
        const scales = momentum.scalesAt(T0);
        for (let id = 0; id <= 6; id++) {
          const ceiling = Math.min(MAX_MOMENTUM, Math.max(MIN_MOMENTUM, momentum.ever.raw(id) / SALES_PER_UNIT));
          for (const sales of [momentum, restored]) {
            expect(sales.ceilingBound(id)).toBeGreaterThanOrEqual(sales.momentum(id, scales, exponent));
            expect(sales.ceilingBound(id)).toBeGreaterThanOrEqual(ceiling);
            expect(sales.ceilingBound(id)).toBeLessThanOrEqual(ceiling * 2 ** (1 / 16));
          }
        }
      }),
    );
  });

  test('When a steady best-seller and a product sold once are compared, then momentum never puts the one-off above it', () => {
    // Steady: a sale every `gap` (an hour to a week) for `count` sales, the last within a gap of now.
    const steadyArb = fc.record({ gap: fc.integer({ min: HOUR, max: 7 * DAY }), count: fc.integer({ min: 2, max: 300 }), offset: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(steadyArb, fc.integer({ min: 0, max: 2 * 365 * DAY }), fc.constantFrom(0, 0.5, 1, 1.5, 2), ({ gap, count, offset }, oneOffAge, exponent) => {
        const engine = engineWith(['steady', 'once']);
        for (let k = 0; k < count; k++) sell(engine, 'steady', T0 - Math.floor(offset * gap) - k * gap);
        sell(engine, 'once', T0 - oneOffAge);
        expect(momentumOf(engine, 'steady', T0, exponent)).toBeGreaterThanOrEqual(momentumOf(engine, 'once', T0, exponent));
      }),
      { numRuns: 300 },
    );
  });

  test('When a steady best-seller has sold for years, then its momentum stays about 1 (the old multiplier fell like 1 / the age of its history)', () => {
    const engine = engineWith(['steady']);
    for (let t = 0; t < 3 * 365 * DAY; t += DAY) sell(engine, 'steady', T0 - t);
    expect(momentumOf(engine, 'steady', T0)).toBeGreaterThan(0.9);
    expect(momentumOf(engine, 'steady', T0)).toBeLessThan(1.2);
  });

  test('When two products are as similar to what the shopper bought, then personalized with momentum ranks the one selling now first', () => {
    const engine = engineWith(['a', 'faded', 'fresh']);
    for (let i = 0; i < 5; i++) buy(engine, `pf${i}`, ['a', 'faded'], T0 - 300 * DAY);
    for (let i = 0; i < 5; i++) buy(engine, `pn${i}`, ['a', 'fresh'], T0 - 300 * DAY);
    for (let i = 0; i < 10; i++) buy(engine, `now${i}`, ['fresh'], T0 - DAY);
    buy(engine, 'me', ['a'], T0 - DAY);
    engine.ease.blend = { ...engine.ease.blend, momentumExponent: 0 };
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 2 }, T0))).toEqual(['faded', 'fresh']);
    engine.ease.blend = { ...engine.ease.blend, momentumExponent: 1 };
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 2 }, T0))).toEqual(['fresh', 'faded']);
    // With the shop's recency off, momentum is off too.
    engine.setRecency('off');
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 2 }, T0))).toEqual(['faded', 'fresh']);
  });
});
