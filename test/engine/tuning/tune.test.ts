import { describe, expect, test } from 'vitest';
import { DEFAULT_CART_BLEND, DEFAULT_EASE_BLEND } from '../../../src/engine/ease/ease-model.js';
import type { TuningReport } from '../../../src/engine/tuning/tuned-settings.js';
import { fitInput } from '../../../src/engine/ease/fit-input.js';
import type { ShopEngine } from '../../../src/engine/shop-engine.js';
import { tune, tuneOptions } from '../../../src/engine/tuning/tune.js';
import { momentumShopProducts, momentumShopPurchases, type ShopShape } from '../../support/momentum-shop.js';
import { DAY, engineWith, T0 } from '../fixtures.js';

const DEFAULTS = { ...DEFAULT_EASE_BLEND, lambda: 10 };
/** Returning shoppers' newest purchases are steady products; with none, the newest are the fads. */
const MISLEADS: ShopShape = { archive: 40, returning: 20, fad: 6 };
const HELPS: ShopShape = { archive: 40, returning: 0, fad: 30 };

function shop(shape: ShopShape): ShopEngine {
  const engine = engineWith(momentumShopProducts());
  for (const p of momentumShopPurchases(T0, shape)) {
    engine.apply({ type: 'purchase', productId: p.productId, sessionId: `s-${p.customerId}`, customerId: p.customerId, timestamp: p.timestamp, metadata: { orderId: p.orderId } });
  }
  return engine;
}

/**
 * A shop with recency off whose orders are bundles of 3 of its 120 products (40 bundles): 300
 * customers each buy 4 orders at distinct days, random bundles (`partnered`: two random bundles and
 * each one's partner, bundle b ^ 1), tuned.
 */
function bundleShop(partnered: boolean) {
  const engine = engineWith(Array.from({ length: 120 }, (_, i) => `p${i}`), { recency: 'off' });
  let seed = 12345;
  const random = (below: number) => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
  for (let c = 0; c < 300; c++) {
    const bundles: number[] = [];
    while (bundles.length < 4) {
      const b = random(40);
      if (bundles.includes(b) || (partnered && bundles.includes(b ^ 1))) continue;
      bundles.push(b);
      if (partnered) bundles.push(b ^ 1);
    }
    bundles.forEach((b, o) => {
      const timestamp = T0 - 100 * DAY + (o * 10 + random(10)) * DAY;
      for (let i = 0; i < 3; i++) engine.apply({ type: 'purchase', productId: `p${b * 3 + i}`, sessionId: `s-${c}`, customerId: `c${c}`, timestamp, metadata: { orderId: `c${c}-${o}` } });
    });
  }
  const input = fitInput(engine, 200, T0)!;
  return tune(input.items.length, input.histories, input.tuning!, tuneOptions(DEFAULTS, 20, 60_000, 'off'), () => performance.now());
}

function tuned(engine: ShopEngine) {
  const input = fitInput(engine, 100, T0)!;
  return tune(input.items.length, input.histories, input.tuning!, tuneOptions(DEFAULTS, 20, 60_000), () => performance.now());
}

describe('tune', () => {
  test("When the shop's newest purchases are products momentum pushes down, then a lower momentum exponent is installed, beating the default by more than the margin", () => {
    const report = tuned(shop(MISLEADS));
    expect(report.decision).toBe('tuned');
    expect(report.settings.momentumExponent).toBeLessThan(1);
    expect(report.shoppers).toBe((8 * 20) / 2); // every other returning shopper: their last purchase is among the newest
    expect(report.scores.chosen! - report.scores.default!).toBeGreaterThan(report.margin * report.standardError);
    expect(report.scores.popularity).not.toBeNull();
    expect(report.lambdasTried).toEqual([10, 2.5, 40]);
    expect(report.settingsTried).toBe(3 * 12); // λs × momentum exponents × real-time weights
  });

  test("When the shop's newest purchases are what sells now, then no setting beats the default and the defaults stay", () => {
    const report = tuned(shop(HELPS));
    expect(report.decision).toBe('default-best');
    const { cart: _cart, ...personalized } = report.settings;
    expect(personalized).toEqual(DEFAULTS);
    expect(report.scores.chosen).toBe(report.scores.default);
  });

  test('When recency is off, then only timeless settings are tried (no momentum, every history item alike, EASE alone at each λ), on orders spread over histories', () => {
    const engine = shop(MISLEADS);
    const input = fitInput(engine, 100, T0)!;
    // The defaults' momentum: no answer applies it with recency off, so it is neither scored nor tried.
    expect(DEFAULTS.momentumExponent).toBeGreaterThan(0);
    const report = tune(input.items.length, input.histories, input.tuning!, tuneOptions(DEFAULTS, 20, 60_000, 'off'), () => performance.now());
    expect(report.settingsTried).toBe(3); // the λs
    expect(report.settings.momentumExponent).toBe(0);
    expect(report.settings.historyExponent).toBe(0);
    expect(report.settings.realTimeWeight).toBe(0);
    expect(report.defaults).toEqual({ ...DEFAULTS, momentumExponent: 0, historyExponent: 0, realTimeWeight: 0 });
    expect(report.shoppers).toBeGreaterThan((8 * 20) / 2); // archive shoppers too: their purchases are spread, not newest
  });

  test('When recency is off and orders are independent bundles, then the validation finds nothing beyond chance: no held-out purchase is found by its own order\'s products left in the history', () => {
    // Holding out single purchases left each one's basket-mates in the history, and EASE found them (nDCG@10 above 0.8 here).
    const report = bundleShop(false);
    expect(report.shoppers).toBeGreaterThanOrEqual(50);
    expect(report.scores.best!).toBeLessThan(0.25);
  });

  test('When recency is off and every bundle is bought with its partner bundle in another order, then the validation finds the held-out order by its partner', () => {
    const report = bundleShop(true);
    expect(report.shoppers).toBeGreaterThanOrEqual(50);
    expect(report.scores.best!).toBeGreaterThan(0.5);
  });

  test('When orders are bundles, then the cart blend is chosen on whole orders held out, every blend scored, and the basket pairs find the rest of a bundle from one of its products', () => {
    const report = bundleShop(false);
    const cart = report.cart!;
    expect(cart.carts).toBeGreaterThanOrEqual(50);
    expect(cart.scores.pairsAlone!).toBeGreaterThan(0.9);
    expect(cart.scores.easeAlone).not.toBeNull();
    expect(['tuned', 'default-best', 'within-noise']).toContain(cart.decision);
    expect(report.settings.cart).toEqual(cart.settings);
    expect(cart.settings.contentWeight).toBe(DEFAULT_CART_BLEND.contentWeight);
  });

  test('When too few shoppers can be held out, then the defaults stay, untried', () => {
    const report = tuned(shop({ archive: 40, returning: 4, fad: 0 }));
    expect(report.decision).toBe('too-little-data');
    expect(report.settings).toEqual(DEFAULTS);
    expect(report.settingsTried).toBe(0);
    expect(report.scores).toEqual({ chosen: null, default: null, best: null, popularity: null });
  });

  test('When the budget is spent on the default λ, then no other λ is fitted', () => {
    const engine = shop(MISLEADS);
    const input = fitInput(engine, 100, T0)!;
    let t = 0;
    const report = tune(input.items.length, input.histories, input.tuning!, tuneOptions(DEFAULTS, 20, 1), () => (t += 10));
    expect(report.lambdasTried).toEqual([10]);
    // No time for the cart blend's fit either: the default blend, no cart report.
    expect(report.cart).toBeUndefined();
    expect(report.settings.cart).toBeUndefined();
  });

  test('When the same input is tuned twice, then the same settings and scores come out', () => {
    const timeless = (r: TuningReport) => ({ ...r, ms: 0, ...(r.cart === undefined ? {} : { cart: { ...r.cart, ms: 0 } }) });
    const a = tuned(shop(MISLEADS));
    const b = tuned(shop(MISLEADS));
    expect(timeless(a)).toEqual(timeless(b));
  });
});
