// The tuned settings enter the engine with their fit, in one place (EaseModel.blend), and stay
// through the fit's journeys: between processes (portable form) and across a restart (snapshot).
import { describe, expect, test } from 'vitest';
import { DEFAULT_EASE_BLEND, TIMELESS_EASE_BLEND, DEFAULT_CART_BLEND } from '../../../src/engine/ease/ease-model.js';
import { fitInput } from '../../../src/engine/ease/fit-input.js';
import { fromPortable, toPortable } from '../../../src/engine/ease/portable-fit.js';
import { fitEase } from '../../../src/engine/ease/solver.js';
import { ShopEngine } from '../../../src/engine/shop-engine.js';
import { decodeArtifact, encodeArtifact } from '../../../src/store/jetstream/log-message.js';
import { tune, tuneOptions } from '../../../src/engine/tuning/tune.js';
import { momentumShopProducts, momentumShopPurchases } from '../../support/momentum-shop.js';
import type { Recommendation } from '../../../src/engine/recommend.js';
import { ask, engineWith, T0 } from '../fixtures.js';

const scoresOf = (answer: Recommendation) => answer.items.map((item) => [item.product.id, item.score]);

function tunedFit() {
  const engine = engineWith(momentumShopProducts());
  for (const p of momentumShopPurchases(T0, { archive: 40, returning: 20, fad: 6 })) {
    engine.apply({ type: 'purchase', productId: p.productId, sessionId: `s-${p.customerId}`, customerId: p.customerId, timestamp: p.timestamp, metadata: { orderId: p.orderId } });
  }
  const input = fitInput(engine, 100, T0)!;
  const n = input.items.length;
  const tuning = tune(n, input.histories, input.tuning!, tuneOptions({ ...DEFAULT_EASE_BLEND, lambda: 10 }, 20, 60_000), () => performance.now());
  const rows = fitEase(n, input.histories, tuning.settings.lambda, 20)!;
  return { engine, fit: { items: input.items, rows }, tuning };
}

describe('tuned settings installed with their fit', () => {
  test('When a tuned fit is installed, then personalized reads its settings, and an untuned fit brings the defaults back', () => {
    const { engine, fit, tuning } = tunedFit();
    expect(tuning.decision).toBe('tuned');
    engine.installEase({ ...fit, tuning });
    expect(engine.ease.blend).toEqual({ momentumExponent: tuning.settings.momentumExponent, realTimeWeight: tuning.settings.realTimeWeight, historyExponent: tuning.settings.historyExponent });
    expect(engine.ease.tuning).toEqual(tuning);
    // a returning shopper's answer is scored with the tuned blend: not the default's scores
    const tunedAnswer = scoresOf(ask(engine, { strategy: 'personalized', customerId: 'returning-0-0' }, T0));
    engine.installEase(fit);
    expect(engine.ease.blend).toEqual(DEFAULT_EASE_BLEND);
    expect(engine.ease.tuning).toBeUndefined();
    expect(scoresOf(ask(engine, { strategy: 'personalized', customerId: 'returning-0-0' }, T0))).not.toEqual(tunedAnswer);
  });

  test('When the shop turns recency off, then answers apply EASE alone with nothing time-based, whether the fit was tuned or not', () => {
    const { engine, fit, tuning } = tunedFit();
    engine.setRecency('off');
    expect(engine.ease.blendFor(engine.timePriors)).toEqual(TIMELESS_EASE_BLEND);
    const personalizedScores = () => ask(engine, { strategy: 'personalized', customerId: 'returning-0-0' }, T0).items.filter((i) => i.strategy === 'personalized').map((i) => i.score);
    engine.installEase(fit);
    const untuned = personalizedScores();
    // EASE alone: each score is the candidate's EASE score over the best one's, so none passes 1.
    expect(untuned.length).toBeGreaterThan(0);
    expect(Math.max(...untuned)).toBeLessThanOrEqual(1);
    engine.installEase({ ...fit, tuning });
    expect(personalizedScores()).toEqual(untuned);
  });

  test('When the fit travels to another process, then its settings travel with it', () => {
    const { engine, fit, tuning } = tunedFit();
    const other = engineWith(momentumShopProducts());
    const portable = structuredClone(toPortable(engine.catalog, { ...fit, tuning }));
    other.installEase(fromPortable(other.catalog, portable));
    expect(other.ease.tuning).toEqual(tuning);
    const { lambda: _lambda, cart, ...blend } = tuning.settings;
    expect(other.ease.blend).toEqual(blend);
    // The cart blend the tuning chose travels too (the default's when it chose none).
    expect(other.ease.cartBlend).toEqual(cart ?? DEFAULT_CART_BLEND);
  });

  test("When the fit is stored as a cluster's artifact (msgpack), then its settings come back with it", () => {
    const { engine, fit, tuning } = tunedFit();
    const other = engineWith(momentumShopProducts());
    other.installEase(fromPortable(other.catalog, decodeArtifact(encodeArtifact(toPortable(engine.catalog, { ...fit, tuning })))));
    expect(other.ease.tuning).toEqual(tuning);
  });

  test('When the engine is snapshotted and restored, then the settings and their report are restored', () => {
    const { engine, fit, tuning } = tunedFit();
    engine.installEase({ ...fit, tuning });
    const restored = ShopEngine.restore(engine.config, structuredClone(engine.snapshot()))!;
    expect(restored.ease.tuning).toEqual(tuning);
    expect(restored.ease.blend).toEqual(engine.ease.blend);
  });
});
