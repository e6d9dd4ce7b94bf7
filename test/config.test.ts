import { describe, expect, test } from 'vitest';
import { ConfigError, DEFAULT_ENGINE_CONFIG, loadConfig } from '../src/config.js';

const DAY = 86_400_000;

describe('loadConfig: bought-together settings', () => {
  test('When nothing is set, then the basket pair half-life and the cart weight are the engine defaults', () => {
    const { engine } = loadConfig({});
    expect(engine.pairHalfLifeMs).toBe(DEFAULT_ENGINE_CONFIG.pairHalfLifeMs);
    expect(engine.cartPairWeight).toBe(DEFAULT_ENGINE_CONFIG.cartPairWeight);
  });

  test('When PAIRWISE_BASKET_HALF_LIFE_DAYS and PAIRWISE_CART_PAIR_WEIGHT are set, then the engine gets them', () => {
    const { engine } = loadConfig({ PAIRWISE_BASKET_HALF_LIFE_DAYS: '30', PAIRWISE_CART_PAIR_WEIGHT: '0.25' });
    expect(engine.pairHalfLifeMs).toBe(30 * DAY);
    expect(engine.cartPairWeight).toBe(0.25);
  });

  test('When either is out of range or not a number, then loading fails with a ConfigError', () => {
    for (const env of [{ PAIRWISE_BASKET_HALF_LIFE_DAYS: '0' }, { PAIRWISE_BASKET_HALF_LIFE_DAYS: '1.5' }, { PAIRWISE_CART_PAIR_WEIGHT: '2' }, { PAIRWISE_CART_PAIR_WEIGHT: '-0.1' }, { PAIRWISE_CART_PAIR_WEIGHT: 'half' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
  });
});
