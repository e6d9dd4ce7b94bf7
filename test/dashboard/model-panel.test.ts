import { describe, expect, test } from 'vitest';
import type { ShopModel } from '../../src/api/responses.js';
import { modelPanel } from '../../src/dashboard/pages/model-panel.js';

const defaults = { momentumExponent: 1, realTimeWeight: 0.1, historyExponent: 0, lambda: 500 };
const tuned: ShopModel = {
  shopId: 's',
  fitProducts: 48,
  settings: { momentumExponent: 0, realTimeWeight: 0.3, historyExponent: 0.5, lambda: 2000 },
  defaults,
  tuning: {
    decision: 'tuned',
    shoppers: 144,
    scores: { chosen: 0.93848, default: 0.41667, best: 0.93848, popularity: 0.10123 },
    best: { momentumExponent: 0, realTimeWeight: 0.3, historyExponent: 0.5, lambda: 2000 },
    standardError: 0.0123,
    margin: 2,
    settingsTried: 108,
    lambdasTried: [500, 125, 2000],
    seconds: 0.07,
    peakBytes: 9216,
  },
  cart: {
    settings: { easeWeight: 1, pairWeight: 1, contentWeight: 0.3 },
    defaults: { easeWeight: 1, pairWeight: 0.5, contentWeight: 0.3 },
    tuning: {
      decision: 'tuned',
      carts: 812,
      scores: { chosen: 0.31234, default: 0.30011, best: 0.31234, easeAlone: 0.29876, pairsAlone: 0.25123 },
      best: { easeWeight: 1, pairWeight: 1, contentWeight: 0.3 },
      standardError: 0.0021,
      margin: 3,
      seconds: 1.5,
    },
  },
};

describe('the "Why these recommendations" panel', () => {
  test('When the shop tuned itself, then the panel says why, with the validation scores and each setting beside its default', () => {
    const text = modelPanel(tuned).text;
    expect(text).toContain('data-decision="tuned"');
    expect(text).toContain('The settings in use scored 0.9385 against the defaults’ 0.4167: better by more than the validation noise (standard error 0.0123)');
    expect(text).toContain('the newest purchases of 144 shoppers were hidden and predicted');
    expect(text).toContain('Simply listing your best sellers scored 0.1012, below the settings in use.');
    expect(text).toContain('with live shopper and basket similarity');
    expect(text).toMatch(/data-metric="validation-chosen">0.9385</);
    expect(text).toMatch(/data-metric="validation-default">0.4167</);
    expect(text).toMatch(/data-metric="validation-popularity">0.1012</);
    expect(text).toMatch(/<tr data-setting="momentumExponent"><th scope="row">Momentum exponent<\/th><td>0<\/td><td>1<\/td>/);
    expect(text).toMatch(/<tr data-setting="lambda"><th scope="row">EASE λ<\/th><td>2000<\/td><td>500<\/td>/);
    expect(text).toContain('data-cart-decision="tuned"');
    expect(text).toContain('Carts are scored with EASE 1, bought-together pairs 1, content 0.3: on 812 of your orders held out');
    expect(text).toContain('these weights scored 0.3123, EASE alone 0.2988, bought-together pairs alone 0.2512');
  });

  test('When the cart blend was not tuned, then the panel says the default weights are in use', () => {
    const text = modelPanel({ ...tuned, cart: { ...tuned.cart, settings: tuned.cart.defaults, tuning: null } }).text;
    expect(text).toContain('data-cart-decision="none"');
    expect(text).toContain('Carts (several products at once) are scored with the default weights (EASE 1, bought-together pairs 0.5, content 0.3).');
  });

  test('When the best setting was within the noise, then the panel says the defaults stay', () => {
    const text = modelPanel({ ...tuned, settings: defaults, tuning: { ...tuned.tuning!, decision: 'within-noise', scores: { ...tuned.tuning!.scores, chosen: 0.41667 } } }).text;
    expect(text).toContain('data-decision="within-noise"');
    expect(text).toContain('the defaults stay');
    expect(text).toMatch(/<tr data-setting="momentumExponent"><th scope="row">Momentum exponent<\/th><td>1<\/td><td>1<\/td>/);
  });

  test('When too little data was there, then the panel says nothing was measured and the scores show as not measured', () => {
    const none = { chosen: null, default: null, best: null, popularity: null };
    const text = modelPanel({ ...tuned, settings: defaults, tuning: { ...tuned.tuning!, decision: 'too-little-data', shoppers: 3, scores: none } }).text;
    expect(text).toContain('Too few shoppers with several purchases to validate on yet (3): nothing was measured');
    expect(text).toMatch(/data-metric="validation-chosen">–</);
  });

  test('When best sellers scored higher than the tuned settings, then the panel says so instead of claiming a win', () => {
    const scores = { chosen: 0.1512, default: 0.1401, best: 0.1512, popularity: 0.1518 };
    const text = modelPanel({ ...tuned, tuning: { ...tuned.tuning!, scores, standardError: 0.004 } }).text;
    expect(text).toContain('Simply listing your best sellers scored 0.1518, as well or better: on these purchases personalized did not beat best sellers.');
  });

  test('When the real-time weight in use is 0, then the panel does not speak of live shopper similarity', () => {
    const settings = { ...tuned.settings, realTimeWeight: 0 };
    const text = modelPanel({ ...tuned, settings, tuning: { ...tuned.tuning!, best: settings } }).text;
    expect(text).toContain('come from an EASE model alone');
    expect(text).not.toMatch(/live shopper|shopper similarity/);
  });
});
