import { describe, expect, test } from 'vitest';
import { ask, DAY, engineWith, event, idsOf, strategiesOf, T0 } from '../fixtures.js';

describe('recently-viewed', () => {
  test("When a shopper viewed and clicked products, then they come newest first, distinct, at modelLevel 3", () => {
    const engine = engineWith(['a', 'b', 'c', 'd']);
    engine.apply(event('view', 'a', T0 - 3 * DAY, { sessionId: 's1' }));
    engine.apply(event('click', 'b', T0 - 2 * DAY, { sessionId: 's1' }));
    engine.apply(event('view', 'a', T0 - DAY, { sessionId: 's1' }));
    engine.apply(event('purchase', 'c', T0, { sessionId: 's1' })); // not a view
    const result = ask(engine, { strategy: 'recently-viewed', sessionId: 's1', limit: 2 }, T0);
    expect(idsOf(result)).toEqual(['a', 'b']);
    expect(result.modelLevel).toBe(3);
    expect(result.items[0]!.score).toBeCloseTo(2 ** (-1 / 7), 12);
  });

  test('When the history runs out, then trending backfills and its items are labelled trending', () => {
    const engine = engineWith(['a', 'b', 'c']);
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    engine.apply(event('purchase', 'c', T0, { sessionId: 'other' }));
    const result = ask(engine, { strategy: 'recently-viewed', sessionId: 's1' }, T0);
    expect(idsOf(result)).toEqual(['a', 'c', 'b']);
    expect(strategiesOf(result)).toEqual(['recently-viewed', 'trending', 'trending']);
    expect(result.strategy).toBe('recently-viewed');
  });

  test("When both a customer and a session are given, then the customer's history is used", () => {
    const engine = engineWith(['a', 'b']);
    engine.apply(event('view', 'a', T0, { sessionId: 's1', customerId: 'c1' }));
    engine.apply(event('view', 'b', T0, { sessionId: 's2' }));
    const result = ask(engine, { strategy: 'recently-viewed', customerId: 'c1', sessionId: 's2', limit: 1 }, T0);
    expect(idsOf(result)).toEqual(['a']);
    expect(idsOf(ask(engine, { strategy: 'recently-viewed', customerId: 'nobody', sessionId: 's2', limit: 1 }, T0))).toEqual(['b']);
  });

  test('When views are imported out of order, then the newest by time comes first', () => {
    const engine = engineWith(['a', 'b', 'c']);
    engine.apply(event('view', 'b', T0 - DAY, { sessionId: 's1' }));
    engine.apply(event('view', 'a', T0, { sessionId: 's1' }));
    engine.apply(event('view', 'c', T0 - 2 * DAY, { sessionId: 's1' }));
    expect(idsOf(ask(engine, { strategy: 'recently-viewed', sessionId: 's1', limit: 3 }, T0))).toEqual(['a', 'b', 'c']);
  });
});
