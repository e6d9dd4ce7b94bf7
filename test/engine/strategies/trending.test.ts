import { describe, expect, test } from 'vitest';
import { ask, DAY, engineWith, event, idsOf, T0 } from '../fixtures.js';

describe('trending', () => {
  test('When one product is purchased and another viewed twice, then the purchase (weight 6) ranks first', () => {
    const engine = engineWith(['a', 'b', 'c']);
    engine.apply(event('view', 'a', T0));
    engine.apply(event('view', 'a', T0));
    engine.apply(event('purchase', 'b', T0));
    const result = ask(engine, { strategy: 'trending' }, T0);
    expect(idsOf(result)).toEqual(['b', 'a', 'c']);
    expect(result.items.map((item) => item.score)).toEqual([6, 2, 0]);
    expect(result.modelLevel).toBe(1);
  });

  test('When each event type is applied once, then the order follows the configured weights and impressions add nothing', () => {
    const engine = engineWith(['view', 'click', 'save', 'cart', 'buy', 'seen']);
    engine.apply(event('view', 'view', T0));
    engine.apply(event('click', 'click', T0));
    engine.apply(event('save', 'save', T0));
    engine.apply(event('add_to_cart', 'cart', T0));
    engine.apply(event('purchase', 'buy', T0));
    engine.apply(event('impression', 'seen', T0));
    const result = ask(engine, { strategy: 'trending' }, T0);
    expect(result.items.map((item) => [item.product.id, item.score])).toEqual([
      ['buy', 6],
      ['cart', 4],
      ['save', 3],
      ['click', 2],
      ['view', 1],
      ['seen', 0],
    ]);
  });

  test('When an old burst is compared to a recent smaller one, then the old burst decays below it', () => {
    const engine = engineWith(['old', 'new']);
    for (let i = 0; i < 5; i++) engine.apply(event('purchase', 'old', T0 - 10 * DAY)); // 30 · 2^-5 = 0.9375 now
    engine.apply(event('view', 'new', T0)); // 1 now
    const result = ask(engine, { strategy: 'trending' }, T0);
    expect(idsOf(result)).toEqual(['new', 'old']);
    expect(result.items[1]!.score).toBeCloseTo(0.9375, 12);

    engine.apply(event('view', 'old', T0)); // one more view tips it back: 1.9375 > 1
    expect(idsOf(ask(engine, { strategy: 'trending' }, T0))).toEqual(['old', 'new']);
  });

  test('When events arrive in a different order, then the ranking and scores are the same', () => {
    const log = [event('purchase', 'a', T0 - 3 * DAY), event('view', 'b', T0), event('click', 'c', T0 - DAY), event('view', 'b', T0 - 2 * DAY)];
    const forward = engineWith(['a', 'b', 'c']);
    const backward = engineWith(['a', 'b', 'c']);
    for (const e of log) forward.apply(e);
    for (const e of [...log].reverse()) backward.apply(e);
    const one = ask(forward, { strategy: 'trending' }, T0);
    const two = ask(backward, { strategy: 'trending' }, T0);
    expect(idsOf(two)).toEqual(idsOf(one));
    two.items.forEach((item, i) => expect(item.score).toBeCloseTo(one.items[i]!.score, 12));
  });

  test('When the trending half-life is configured, then scores halve after that time', () => {
    const engine = engineWith(['a'], { trendingHalfLifeMs: DAY });
    engine.apply(event('purchase', 'a', T0));
    expect(ask(engine, { strategy: 'trending' }, T0 + DAY).items[0]!.score).toBeCloseTo(3, 12);
  });
});
