import { describe, expect, test } from 'vitest';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { momentum, recentPurchaseScale } from '../../src/engine/momentum.js';
import { ask, DAY, engineWith, idsOf, T0 } from './fixtures.js';

function buy(engine: ShopEngine, customerId: string, productIds: string[], t: number): void {
  for (const productId of productIds) engine.apply({ type: 'purchase', productId, sessionId: `s-${customerId}`, customerId, timestamp: t });
}

describe('momentum', () => {
  test('When one product sold much last year and another sells now, then the one selling now has the higher momentum; exponent 0 leaves every score as it is', () => {
    const engine = engineWith(['old', 'new', 'never']);
    for (let i = 0; i < 20; i++) buy(engine, `o${i}`, ['old'], T0 - 300 * DAY);
    for (let i = 0; i < 3; i++) buy(engine, `n${i}`, ['new'], T0 - DAY);
    const dense = (id: string) => engine.catalog.denseOf(id)!;
    const scale = recentPurchaseScale(engine, T0);
    expect(momentum(engine, dense('new'), scale, 1)).toBeGreaterThan(momentum(engine, dense('old'), scale, 1));
    // 3 recent purchases (decayed a day) + 1 over 3 orders; 20 orders with nothing recent: 1/20.
    expect(momentum(engine, dense('new'), scale, 1)).toBeCloseTo((3 * 2 ** (-1 / 14) + 1) / 3, 6);
    expect(momentum(engine, dense('old'), scale, 1)).toBeCloseTo(1 / 20, 4);
    expect(momentum(engine, dense('never'), scale, 1)).toBe(1);
    for (const id of ['old', 'new', 'never']) expect(momentum(engine, dense(id), scale, 0)).toBe(1);
    expect(momentum(engine, dense('old'), scale, 0.5)).toBeCloseTo(Math.sqrt(1 / 20), 4);
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
  });
});
