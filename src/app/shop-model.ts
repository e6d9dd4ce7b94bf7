// What personalized runs with in a shop and why (GET /api/shop/model, /metrics, the dashboard):
// the installed fit's tuned settings and their validation, or the defaults.
import type { CartModelTuning, CartSettings, ModelSettings, ModelTuning, ShopModel } from '../api/responses.js';
import type { CartBlend } from '../engine/ease/ease-blend.js';
import { DEFAULT_CART_BLEND, DEFAULT_EASE_BLEND, TIMELESS_EASE_BLEND } from '../engine/ease/ease-model.js';
import type { ShopFace } from '../engine/shop-face.js';
import type { CartTuningReport, TunedSettings } from '../engine/tuning/tuned-settings.js';

function settingsOf(s: TunedSettings): ModelSettings {
  return { momentumExponent: s.momentumExponent, realTimeWeight: s.realTimeWeight, historyExponent: s.historyExponent, lambda: s.lambda };
}

function cartSettingsOf(b: CartBlend): CartSettings {
  return { easeWeight: b.easeWeight, pairWeight: b.pairWeight, contentWeight: b.contentWeight };
}

/** `lambda`: the configured λ (PAIRWISE_EASE_LAMBDA), the default's. */
export function shopModel(shopId: string, engine: ShopFace, lambda: number): ShopModel {
  const panel = engine.modelPanel();
  const report = panel.tuning;
  const defaults: ModelSettings = settingsOf({ ...(engine.timePriors ? DEFAULT_EASE_BLEND : TIMELESS_EASE_BLEND), lambda });
  const tuning: ModelTuning | null =
    report === undefined
      ? null
      : {
          decision: report.decision,
          shoppers: report.shoppers,
          scores: { ...report.scores },
          best: settingsOf(report.best),
          standardError: report.standardError,
          margin: report.margin,
          settingsTried: report.settingsTried,
          lambdasTried: [...report.lambdasTried],
          seconds: report.ms / 1000,
          peakBytes: report.peakBytes,
        };
  return {
    shopId,
    fitProducts: panel.fitProducts,
    // What answers apply: with the shop's recency off, nothing time-based and EASE alone, at the fit's λ.
    settings: settingsOf({ ...panel.blend, lambda: report?.settings.lambda ?? lambda }),
    defaults: report === undefined ? defaults : settingsOf(report.defaults),
    tuning,
    cart: { settings: cartSettingsOf(panel.cartBlend), defaults: cartSettingsOf(DEFAULT_CART_BLEND), tuning: cartTuning(report?.cart) },
  };
}

function cartTuning(report: CartTuningReport | undefined): CartModelTuning | null {
  if (report === undefined) return null;
  return {
    decision: report.decision,
    carts: report.carts,
    scores: { ...report.scores },
    best: cartSettingsOf(report.best),
    standardError: report.standardError,
    margin: report.margin,
    seconds: report.ms / 1000,
  };
}
