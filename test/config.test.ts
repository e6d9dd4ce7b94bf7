import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ConfigError, DEFAULT_ENGINE_CONFIG, loadConfig } from '../src/config.js';

const DAY = 86_400_000;

describe('loadConfig: bought-together settings', () => {
  test('When nothing is set, then the basket pair half-life and the cart weight are the engine defaults', () => {
    const { engine } = loadConfig({});
    expect(engine.pairHalfLifeMs).toBe(DEFAULT_ENGINE_CONFIG.pairHalfLifeMs);
    expect(engine.cartPairWeight).toBe(DEFAULT_ENGINE_CONFIG.cartPairWeight);
    expect(engine.pairFloor).toBe(DEFAULT_ENGINE_CONFIG.pairFloor);
    expect(engine.pairConfidenceBaskets).toBe(DEFAULT_ENGINE_CONFIG.pairConfidenceBaskets);
    expect(engine.pairPopularityExponent).toBe(DEFAULT_ENGINE_CONFIG.pairPopularityExponent);
    expect(engine.pairContentWeight).toBe(DEFAULT_ENGINE_CONFIG.pairContentWeight);
  });

  test('When PAIRWISE_BASKET_HALF_LIFE_DAYS, PAIRWISE_BASKET_PAIR_FLOOR, PAIRWISE_BASKET_CONFIDENT_PAIR_BASKETS, PAIRWISE_CART_PAIR_WEIGHT, PAIRWISE_BASKET_POPULARITY_EXPONENT and PAIRWISE_BASKET_CONTENT_WEIGHT are set, then the engine gets them', () => {
    const { engine } = loadConfig({
      PAIRWISE_BASKET_HALF_LIFE_DAYS: '45',
      PAIRWISE_BASKET_PAIR_FLOOR: '0.2',
      PAIRWISE_BASKET_CONFIDENT_PAIR_BASKETS: '2.5',
      PAIRWISE_CART_PAIR_WEIGHT: '0.25',
      PAIRWISE_BASKET_POPULARITY_EXPONENT: '0',
      PAIRWISE_BASKET_CONTENT_WEIGHT: '0.5',
    });
    expect(engine.pairConfidenceBaskets).toBe(2.5);
    expect(engine.pairHalfLifeMs).toBe(45 * DAY);
    expect(engine.pairFloor).toBe(0.2);
    expect(engine.cartPairWeight).toBe(0.25);
    expect(engine.pairPopularityExponent).toBe(0);
    expect(engine.pairContentWeight).toBe(0.5);
  });

  test('When either is out of range or not a number, then loading fails with a ConfigError', () => {
    for (const env of [{ PAIRWISE_BASKET_HALF_LIFE_DAYS: '0' }, { PAIRWISE_BASKET_HALF_LIFE_DAYS: '1.5' }, { PAIRWISE_CART_PAIR_WEIGHT: '2' }, { PAIRWISE_CART_PAIR_WEIGHT: '-0.1' }, { PAIRWISE_CART_PAIR_WEIGHT: 'half' }, { PAIRWISE_BASKET_PAIR_FLOOR: '1.5' }, { PAIRWISE_BASKET_PAIR_FLOOR: 'some' }, { PAIRWISE_BASKET_CONFIDENT_PAIR_BASKETS: '-1' }, { PAIRWISE_BASKET_CONFIDENT_PAIR_BASKETS: '1001' }, { PAIRWISE_BASKET_CONFIDENT_PAIR_BASKETS: 'many' }, { PAIRWISE_BASKET_POPULARITY_EXPONENT: '1.5' }, { PAIRWISE_BASKET_POPULARITY_EXPONENT: '-0.1' }, { PAIRWISE_BASKET_CONTENT_WEIGHT: '2' }, { PAIRWISE_BASKET_CONTENT_WEIGHT: 'some' }]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
  });
});

describe('loadConfig: shopper pools', () => {
  test('When PAIRWISE_MAX_CUSTOMERS and PAIRWISE_MAX_SESSIONS are set, then the engine keeps that many of each; unset, 100,000 each; out of range, a ConfigError', () => {
    expect(loadConfig({}).engine).toMatchObject({ maxCustomers: 100_000, maxSessions: 100_000 });
    expect(loadConfig({ PAIRWISE_MAX_CUSTOMERS: '5000', PAIRWISE_MAX_SESSIONS: '20' }).engine).toMatchObject({ maxCustomers: 5000, maxSessions: 20 });
    for (const env of [{ PAIRWISE_MAX_CUSTOMERS: '0' }, { PAIRWISE_MAX_SESSIONS: '1.5' }, { PAIRWISE_MAX_SESSIONS: '10000001' }]) expect(() => loadConfig(env)).toThrow(ConfigError);
  });
});

/** Strings an operator might set: numbers of every shape, blanks, words. */
const settings = fc.oneof(
  fc.integer({ min: -70_000, max: 70_000 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom('', ' ', '1e3', '0x10', '08', '1.0', '-0', 'Infinity', 'NaN', 'half', '1,5'),
  fc.string({ maxLength: 6 }),
);

describe('loadConfig: numeric settings', () => {
  test('Given any string for an integer setting (PORT), then it is taken exactly when it is an integer in range, else loading fails naming it', () => {
    fc.assert(
      fc.property(settings, (raw) => {
        const value = Number(raw);
        if (raw === '') expect(loadConfig({ PORT: raw }).port).toBe(8080);
        else if (Number.isInteger(value) && value >= 0 && value <= 65535) expect(loadConfig({ PORT: raw }).port).toBe(value);
        else expect(() => loadConfig({ PORT: raw })).toThrow(/^PORT must be an integer from 0 to 65535/);
      }),
    );
  });

  test('Given any string for a fraction setting (PAIRWISE_CART_PAIR_WEIGHT), then it is taken exactly when it is a number from 0 to 1, else loading fails naming it', () => {
    fc.assert(
      fc.property(settings, (raw) => {
        const value = Number(raw);
        const load = () => loadConfig({ PAIRWISE_CART_PAIR_WEIGHT: raw }).engine.cartPairWeight;
        if (raw === '') expect(load()).toBe(DEFAULT_ENGINE_CONFIG.cartPairWeight);
        else if (Number.isFinite(value) && value >= 0 && value <= 1) expect(load()).toBe(value);
        else expect(load).toThrow(/^PAIRWISE_CART_PAIR_WEIGHT must be a number from 0 to 1/);
      }),
    );
  });
});

describe('loadConfig: recency', () => {
  test('Given any string for PAIRWISE_RECENCY, then off and auto are taken, unset or empty is auto, and anything else fails naming it', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom('off', 'auto', '', 'OFF', 'on', 'false'), fc.string({ maxLength: 12 })), (raw) => {
        const load = () => loadConfig({ PAIRWISE_RECENCY: raw }).engine.recency;
        if (raw === 'off') expect(load()).toBe('off');
        else if (raw === 'auto' || raw === '') expect(load()).toBe('auto');
        else expect(load).toThrow(/^PAIRWISE_RECENCY must be auto or off/);
      }),
    );
    expect(loadConfig({}).engine.recency).toBe('auto');
  });
});

describe('loadConfig: trusted proxies', () => {
  test('When PAIRWISE_TRUSTED_PROXIES is unset or empty, then no proxy is trusted', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ PAIRWISE_TRUSTED_PROXIES: ' , ' }).trustedProxies).toEqual([]);
  });

  test('When it lists IPv4/IPv6 addresses and CIDR ranges, then each is kept as written, trimmed', () => {
    const { trustedProxies } = loadConfig({ PAIRWISE_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1 ,fd00::/8,,::ffff:192.0.2.0/120' });
    expect(trustedProxies).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '::ffff:192.0.2.0/120']);
  });

  test('When an entry is not an address or range, then loading fails with a ConfigError naming the variable and the entry', () => {
    const cases: [string, string][] = [
      ['127.0.0.1,proxy.internal', '"proxy.internal" is not an IP address or CIDR range'],
      ['10.0.0.0/33', '"10.0.0.0/33" needs a prefix length from 0 to 32'],
      ['10.0.0.1/8', '"10.0.0.1/8" has bits set past its /8 prefix'],
      ['[::1]:80', '"[::1]:80" is not an IP address or CIDR range'],
      ['loopback', '"loopback" is not an IP address or CIDR range'],
    ];
    for (const [value, why] of cases) {
      expect(() => loadConfig({ PAIRWISE_TRUSTED_PROXIES: value })).toThrow(new ConfigError(`PAIRWISE_TRUSTED_PROXIES lists IP addresses and CIDR ranges: ${why}`));
    }
  });
});
