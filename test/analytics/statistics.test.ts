// The statistics' rates over attribution's cells: whatever events came, in whatever order, the
// add-to-cart and conversion rates of every grouping and range stay within [0, 1] and inside their
// intervals (each click goes on to a cart, and to an order, at most once).
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { statistics, GROUP_BYS, type Metrics } from '../../src/analytics/statistics.js';
import { Attribution, type AttributedEvent } from '../../src/engine/attribution/attribution.js';
import { DAY_MS } from '../../src/engine/attribution/day-cells.js';

const T0 = Date.parse('2025-03-01T10:00:00Z');
const DAY0 = Math.floor(T0 / DAY_MS);
const WINDOW = 7 * DAY_MS;
const priceOf = (id: string) => ({ '1': 10, '2': 2.5 })[id];

const eventArb = fc.record({
  dt: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3_600_000 }), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 3 * DAY_MS }), weight: 1 }),
  type: fc.constantFrom('impression', 'click', 'add_to_cart', 'purchase', 'purchase'),
  productId: fc.constantFrom('1', '2', '3'),
  sessionId: fc.constantFrom('s1', 's2'),
  customerId: fc.option(fc.constantFrom('c1', 'c2'), { nil: undefined }),
  recId: fc.option(fc.constantFrom('rec_t_0_0_a', 'rec_b_0_0_b', 'rec_s_1_1_c', 'rec_s_1_2_d'), { nil: undefined }),
  widgetId: fc.option(fc.constantFrom('home', 'pdp'), { nil: undefined }),
  orderId: fc.option(fc.constantFrom('o1', 'o2', 'o3', 'o4'), { nil: undefined }),
  pinned: fc.boolean(),
});

interface StreamEvent {
  dt: number;
  type: string;
  productId: string;
  sessionId: string;
  customerId?: string;
  recId?: string;
  widgetId?: string;
  orderId?: string;
  pinned: boolean;
}

/** A model that counted `stream`, its times increasing from T0 by each dt. */
function modelOf(stream: StreamEvent[]): Attribution {
  const model = new Attribution(WINDOW, 4);
  let t = T0;
  for (const e of stream) {
    t += e.dt;
    const metadata = { ...(e.orderId === undefined ? {} : { orderId: e.orderId }), ...(e.pinned ? { ruleId: 'r1' } : {}) };
    const event = { type: e.type, productId: e.productId, sessionId: e.sessionId, customerId: e.customerId, recId: e.recId, widgetId: e.widgetId, metadata, timestamp: t } as AttributedEvent;
    model.apply(event, priceOf);
  }
  return model;
}

function expectRatesInRange(m: Metrics): void {
  for (const rate of [m.addToCartRate, m.conversionRate]) {
    if (rate.rate === null) continue;
    expect(rate.rate).toBeGreaterThanOrEqual(0);
    expect(rate.rate).toBeLessThanOrEqual(1);
    expect(rate.low!).toBeLessThanOrEqual(rate.rate + 1e-12);
    expect(rate.high!).toBeGreaterThanOrEqual(rate.rate - 1e-12);
  }
}

describe('statistics rates', () => {
  test('When one click is followed by three purchases with different order ids, then three orders count and the conversion rate is 1 inside its interval', () => {
    const model = modelOf([
      { dt: 0, type: 'click', productId: '1', sessionId: 's1', recId: 'rec_t_0_0_a', pinned: false },
      ...['o1', 'o2', 'o3'].map((orderId) => ({ dt: 1000, type: 'purchase', productId: '1', sessionId: 's1', orderId, pinned: false })),
    ]);
    const { totals } = statistics(model, { fromDay: DAY0, toDay: DAY0 }, 'strategy');
    expect(totals).toMatchObject({ clicks: 1, orders: 3, convertedClicks: 1 });
    expect(totals.conversionRate.rate).toBe(1);
    expect(totals.conversionRate.low).toBeCloseTo(0.206549, 6);
    expect(totals.conversionRate.high).toBe(1);
  });

  test('When any stream of events is counted, then every grouping and range has its add-to-cart and conversion rates in [0, 1] and inside their intervals', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 120 }), fc.nat(6), fc.nat(6), (stream, a, b) => {
        const model = modelOf(stream);
        const range = { fromDay: DAY0 + Math.min(a, b), toDay: DAY0 + Math.max(a, b) };
        for (const groupBy of GROUP_BYS) {
          const answer = statistics(model, range, groupBy);
          expectRatesInRange(answer.totals);
          for (const group of answer.groups) {
            expectRatesInRange(group);
            if (group.pinned !== undefined) expectRatesInRange(group.pinned);
            if (group.organic !== undefined) expectRatesInRange(group.organic);
          }
          for (const experiment of answer.experiments ?? []) for (const variant of experiment.variants) expectRatesInRange(variant);
        }
      }),
      { numRuns: 300 },
    );
  });
});
