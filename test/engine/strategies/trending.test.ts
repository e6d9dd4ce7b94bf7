// trending is velocity: recent weighted volume (trending half-life) times its lift over the
// product's long-term rate (popularity half-life). Expected scores come from test/support/trending.ts.
import { describe, expect, test } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../src/config.js';
import type { EventType } from '../../../src/engine/event.js';
import { decayedCount, expectedTrendingScore, expectedTrendingScoreOf, repeated, type WeightedEvent } from '../../support/trending.js';
import { ask, DAY, engineWith, event, HOUR, idsOf, product, T0 } from '../fixtures.js';

const W = DEFAULT_ENGINE_CONFIG.eventWeights;
const SHORT = DEFAULT_ENGINE_CONFIG.trendingHalfLifeMs;

const trendingAt = (engine: ReturnType<typeof engineWith>, now = T0) => ask(engine, { strategy: 'trending', limit: 24 }, now);
const scoreOf = (engine: ReturnType<typeof engineWith>, id: string, now = T0) => trendingAt(engine, now).items.find((item) => item.product.id === id)!.score;

describe('trending', () => {
  test('When a product bursts today, then it beats a steady best-seller with a higher all-time count', () => {
    const engine = engineWith(['steady', 'burst']);
    // steady: 10 purchases a day for the last 30 days (300 in all); burst: 20 purchases today only.
    for (let day = 0; day < 30; day++) for (let i = 0; i < 10; i++) engine.apply(event('purchase', 'steady', T0 - day * DAY - i * HOUR));
    for (let i = 0; i < 20; i++) engine.apply(event('purchase', 'burst', T0 - i * 60_000));

    const result = trendingAt(engine);
    expect(idsOf(result)).toEqual(['burst', 'steady']);
    // Not by volume: steady still has more recent (and far more all-time) weighted events.
    const steady = engine.catalog.denseOf('steady')!;
    const burst = engine.catalog.denseOf('burst')!;
    expect(engine.trending.raw(steady)).toBeGreaterThan(engine.trending.raw(burst));
    expect(engine.popularity.raw(steady)).toBeGreaterThan(engine.popularity.raw(burst));
    expect(result.modelLevel).toBe(1);
  });

  test('When a product sells steadily for a long time, then its lift is about 1 and its score about its recent volume', () => {
    const engine = engineWith(['steady']);
    // 10 purchases a day, evenly spaced, for a year: long past both half-lives.
    const events: WeightedEvent[] = [];
    for (let t = 0; t < 365 * DAY; t += DAY / 10) {
      engine.apply(event('purchase', 'steady', T0 - t));
      events.push({ weight: W.purchase, ageMs: t });
    }
    const recent = decayedCount(events, SHORT);
    const score = scoreOf(engine, 'steady');
    expect(score / recent).toBeGreaterThan(0.97);
    expect(score / recent).toBeLessThan(1.03);
    expect(score).toBeCloseTo(expectedTrendingScoreOf(events), 6);
  });

  test('When a product has a purchase now and one 14 days ago, then its score is the hand-computed recent × lift', () => {
    const engine = engineWith(['a']);
    engine.apply(event('purchase', 'a', T0 - 14 * DAY));
    engine.apply(event('purchase', 'a', T0));
    // With h_short = 2 d and h_long = 14 d (rates in events per 14 days, prior 3):
    //   recent   = 6 + 6·2^-7 = 6.046875       → rate 6.046875 · 7 = 42.328125
    //   longTerm = 6 + 6·2^-1 = 9              → rate 9
    //   lift     = (42.328125 + 3) / (9 + 3) = 3.77734375
    //   score    = 6.046875 · 3.77734375 = 22.84112548828125
    const result = trendingAt(engine);
    expect(result.items[0]!.score).toBeCloseTo(22.84112548828125, 9);
    expect(result.items[0]!.score).toBeCloseTo(expectedTrendingScore(6.046875, 9), 9);
  });

  test('When each event type is applied once, then the order follows the configured weights and impressions add nothing', () => {
    const engine = engineWith(['view', 'click', 'save', 'cart', 'buy', 'seen']);
    const types: [string, EventType][] = [['view', 'view'], ['click', 'click'], ['save', 'save'], ['cart', 'add_to_cart'], ['buy', 'purchase'], ['seen', 'impression']];
    for (const [id, type] of types) engine.apply(event(type, id, T0));
    const result = trendingAt(engine);
    expect(idsOf(result)).toEqual(['buy', 'cart', 'save', 'click', 'view', 'seen']);
    expect(result.modelLevel).toBe(1);
    const expected = { buy: W.purchase, cart: W.add_to_cart, save: W.save, click: W.click, view: W.view, seen: 0 };
    for (const item of result.items) {
      const weight = expected[item.product.id as keyof typeof expected];
      expect(item.score).toBeCloseTo(expectedTrendingScore(weight, weight), 9);
    }
    expect(result.items.at(-1)!.score).toBe(0);
    expect(engine.trending.raw(engine.catalog.denseOf('seen')!)).toBe(0);
  });

  test('When an old burst is compared to a recent smaller one, then the old burst decays below it', () => {
    const engine = engineWith(['old', 'new']);
    for (let i = 0; i < 10; i++) engine.apply(event('purchase', 'old', T0 - 10 * DAY)); // 60 weighted, 10 days ago
    engine.apply(event('purchase', 'new', T0)); // 6 weighted, now

    const result = trendingAt(engine);
    expect(idsOf(result)).toEqual(['new', 'old']);
    expect(result.items[0]!.score).toBeCloseTo(expectedTrendingScoreOf(repeated(1, W.purchase)), 9);
    expect(result.items[1]!.score).toBeCloseTo(expectedTrendingScoreOf(repeated(10, W.purchase, 10 * DAY)), 9);

    // A fresh purchase of the old product does not tip it back: its past volume keeps its lift low.
    engine.apply(event('purchase', 'old', T0));
    expect(idsOf(trendingAt(engine))).toEqual(['new', 'old']);
    expect(scoreOf(engine, 'old')).toBeCloseTo(expectedTrendingScoreOf([...repeated(10, W.purchase, 10 * DAY), ...repeated(1, W.purchase)]), 9);
  });

  test('When time passes without new events, then the scores decay accordingly', () => {
    const engine = engineWith(['a']);
    engine.apply(event('purchase', 'a', T0));
    expect(scoreOf(engine, 'a', T0)).toBeCloseTo(expectedTrendingScoreOf(repeated(1, W.purchase)), 9);
    // Same engine, same event count: the answer two days later is not the cached one.
    expect(scoreOf(engine, 'a', T0 + 2 * DAY)).toBeCloseTo(expectedTrendingScoreOf(repeated(1, W.purchase, 2 * DAY)), 9);
  });

  test('When the trending half-life is configured, then the score follows the formula with that half-life', () => {
    const events = [...repeated(1, W.purchase, DAY), ...repeated(2, W.view, 6 * HOUR)];
    const apply = (engine: ReturnType<typeof engineWith>) => {
      engine.apply(event('purchase', 'a', T0 - DAY));
      engine.apply(event('view', 'a', T0 - 6 * HOUR));
      engine.apply(event('view', 'a', T0 - 6 * HOUR));
    };
    const oneDay = engineWith(['a'], { trendingHalfLifeMs: DAY });
    const byDefault = engineWith(['a']);
    apply(oneDay);
    apply(byDefault);

    const configured = { ...DEFAULT_ENGINE_CONFIG, trendingHalfLifeMs: DAY };
    expect(scoreOf(oneDay, 'a')).toBeCloseTo(expectedTrendingScoreOf(events, configured), 9);
    expect(scoreOf(byDefault, 'a')).toBeCloseTo(expectedTrendingScoreOf(events), 9);
    expect(Math.abs(scoreOf(oneDay, 'a') - scoreOf(byDefault, 'a'))).toBeGreaterThan(1);
  });

  test('When events arrive in a different order, then the ranking and scores are the same', () => {
    const log = [event('purchase', 'a', T0 - 3 * DAY), event('view', 'b', T0), event('click', 'c', T0 - DAY), event('view', 'b', T0 - 2 * DAY)];
    const forward = engineWith(['a', 'b', 'c']);
    const backward = engineWith(['a', 'b', 'c']);
    for (const e of log) forward.apply(e);
    for (const e of [...log].reverse()) backward.apply(e);
    const one = trendingAt(forward);
    const two = trendingAt(backward);
    expect(idsOf(two)).toEqual(idsOf(one));
    two.items.forEach((item, i) => expect(item.score).toBeCloseTo(one.items[i]!.score, 12));
  });

  test('When products get the same events, then they tie and are ordered by product id', () => {
    const engine = engineWith(['m', 'z', 'b', 'a']);
    for (const id of ['z', 'b', 'm']) {
      engine.apply(event('purchase', id, T0 - 3 * DAY));
      engine.apply(event('click', id, T0 - HOUR));
    }
    const result = trendingAt(engine);
    expect(idsOf(result)).toEqual(['b', 'm', 'z', 'a']);
    expect(result.items[1]!.score).toBe(result.items[0]!.score);
    expect(result.items[2]!.score).toBe(result.items[0]!.score);
    expect(result.items[0]!.score).toBeGreaterThan(0);
  });

  test('When the store has no events, then trending still answers in product id order at modelLevel 0', () => {
    const engine = engineWith(['c', 'a', 'd', 'b']);
    const result = trendingAt(engine);
    expect(idsOf(result)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.items.map((item) => item.score)).toEqual([0, 0, 0, 0]);
    expect(result.modelLevel).toBe(0);
  });

  test('When the answer reaches past the top list, then every trending item is still scored by velocity, best first', () => {
    // Two unavailable products fill most of a 3-slot top list, so the answer needs a scan.
    const store = (topListSize: number) => {
      const engine = engineWith(['a', 'b', product('x', { available: false }), product('y', { available: false })], { topListSize });
      engine.apply(event('purchase', 'b', T0 - 8 * DAY));
      engine.apply(event('view', 'a', T0 - 3 * DAY));
      engine.apply(event('click', 'x', T0));
      engine.apply(event('view', 'y', T0));
      return engine;
    };
    const bounded = ask(store(3), { strategy: 'trending', limit: 2 }, T0);
    const unbounded = ask(store(256), { strategy: 'trending', limit: 2 }, T0);
    expect(idsOf(bounded)).toEqual(['a', 'b']);
    expect(bounded.items.map((i) => i.score)).toEqual(unbounded.items.map((i) => i.score));
    expect(bounded.items[0]!.score).toBeGreaterThan(bounded.items[1]!.score);
  });
  test('When two engines that applied the same events are first asked at different moments of a minute, then they rank and score alike, at the minute\'s start', () => {
    const engines = [engineWith(['a', 'b']), engineWith(['a', 'b'])];
    for (const engine of engines) {
      for (let i = 0; i < 5; i++) engine.apply(event('purchase', 'a', T0 - i * HOUR));
      engine.apply(event('view', 'b', T0 - 2 * DAY));
    }
    const minute = T0 - (T0 % 60_000);
    const first = trendingAt(engines[0]!, minute + 10_000);
    const second = trendingAt(engines[1]!, minute + 50_000);
    expect(second.items.map((item) => [item.product.id, item.score])).toEqual(first.items.map((item) => [item.product.id, item.score]));
    expect(scoreOf(engines[0]!, 'a', minute + 59_000)).toBe(scoreOf(engines[1]!, 'a', minute));
  });
});
