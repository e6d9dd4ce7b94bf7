// The compact attribution model against the plain reference (test/reference/attribution.ts) on
// random event streams, its snapshot round trip, and its bounds under hostile input.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Attribution, MAX_STOREFRONT_QUANTITY, type AttributedEvent } from '../../../src/engine/attribution/attribution.js';
import { CARTED_CLICKS, CLICKS, CONVERTED_CLICKS, DAY_MS, FIELDS, IMPRESSIONS, keyExperiment, keyStrategy, keyVariant, keyWidget, MAX_CELLS, MAX_DAYS, ORDERS, OVERFLOW_KEY, packKey, REVENUE } from '../../../src/engine/attribution/day-cells.js';
import { STOREFRONT_WIDGETS_PER_DAY } from '../../../src/engine/attribution/widget-names.js';
import { cellName, ReferenceAttribution, type ReferenceCells } from '../../reference/attribution.js';

const T0 = Date.parse('2025-03-01T10:00:00Z');
const WINDOW = 7 * DAY_MS;
const PRICES: Record<string, number> = { '1': 10, '2': 2.5, '3': 99.99 };
const priceOf = (id: string) => PRICES[id];

/** The compact model's cells in the reference's form. */
function cellsOf(model: Attribution, of: 'cells' | 'pins' = 'cells'): ReferenceCells {
  const cells: ReferenceCells = new Map();
  const rows = model[of].rows;
  model[of].forEach(-Infinity, Infinity, (day, key, row) => {
    const name = cellName(day, { strategy: keyStrategy(key), widget: model.widgets.nameOf(day, keyWidget(key)), experiment: keyExperiment(key), variant: keyVariant(key) });
    cells.set(name, Array.from(rows.subarray(row * FIELDS, row * FIELDS + FIELDS)));
  });
  return cells;
}

/** The compact model's per-product cells in the reference's form (`day|productId`). */
function productCellsOf(model: Attribution): ReferenceCells {
  const cells: ReferenceCells = new Map();
  const rows = model.products.cells.rows;
  model.products.cells.forEach(-Infinity, Infinity, (day, index, row) => {
    cells.set(`${day}|${model.products.names[index]}`, Array.from(rows.subarray(row * FIELDS, row * FIELDS + FIELDS)));
  });
  return cells;
}

function sorted(cells: ReferenceCells): [string, number[]][] {
  return [...cells].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const recIds = ['rec_t_0_0_a1', 'rec_b_0_0_zz', 'rec_s_1_1_x', 'rec_s_1_2_y', 'rec_p_2_1_q', 'rec_q_0_0_bad', 'rec_t_0_1_bad', 'nonsense'];

const eventArb: fc.Arbitrary<{ dt: number; event: Omit<AttributedEvent, 'timestamp'> }> = fc.record(
  {
    dt: fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3_600_000 }), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 9 * DAY_MS }), weight: 1 }),
    event: fc.record(
      {
        type: fc.constantFrom('impression', 'click', 'click', 'add_to_cart', 'purchase', 'purchase', 'purchase', 'view', 'dismiss'),
        productId: fc.constantFrom('1', '2', '3', '4'),
        sessionId: fc.constantFrom('s1', 's2', 's3'),
        customerId: fc.constantFrom('c1', 'c2'),
        // Mostly two widgets; sometimes one of 30 more, past a day's storefront names.
        widgetId: fc.oneof({ arbitrary: fc.constantFrom('home', 'pdp'), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: 29 }).map((i) => `w${i}`), weight: 2 }),
        sender: fc.constant('secret' as const),
        recId: fc.constantFrom(...recIds),
        metadata: fc.record(
          {
            orderId: fc.constantFrom('o1', 'o2', 7),
            price: fc.oneof(fc.double({ min: 0, max: 500, noNaN: true }), fc.constant('12')),
            quantity: fc.integer({ min: 0, max: 4 }),
            // An item a rule pinned (and a few values that are not a rule id).
            ruleId: fc.constantFrom('summer', 'r2', '', 5, 'x'.repeat(65)),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: ['type', 'productId', 'sessionId'] },
    ),
  },
  { requiredKeys: ['dt', 'event'] },
);

/** The stream with timestamps: increasing from T0 by each dt, some events back-dated (imports arrive out of order). */
function timed(stream: { dt: number; event: Omit<AttributedEvent, 'timestamp'> }[]): AttributedEvent[] {
  let t = T0;
  return stream.map(({ dt, event }, i) => {
    t += dt;
    return { ...event, timestamp: i % 11 === 10 ? t - 2 * dt : t } as AttributedEvent;
  });
}

describe('Attribution against the reference', () => {
  test('When any stream of events is applied, with one shopper pool or one each for customers and sessions, then every cell counts exactly what the plain reference counts', () => {
    // One pool shared by customers and sessions, or a pool of their own each (customers, sessions).
    const capacity = fc.oneof(fc.integer({ min: 1, max: 6 }), fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 3 })));
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 120 }), capacity, fc.subarray(['home', 'w3', 'w28']), (stream, shoppers, registered) => {
        const model = new Attribution(WINDOW, shoppers);
        model.widgets.register(registered);
        const reference = new ReferenceAttribution(WINDOW, shoppers, STOREFRONT_WIDGETS_PER_DAY, new Set(registered));
        for (const event of timed(stream)) {
          model.apply(event, priceOf);
          reference.apply(event, priceOf);
        }
        expect(sorted(cellsOf(model))).toEqual(sorted(reference.cells));
        expect(sorted(productCellsOf(model))).toEqual(sorted(reference.products));
        expect(sorted(cellsOf(model, 'pins'))).toEqual(sorted(reference.pins));
      }),
      { numRuns: 300 },
    );
  });

  test('When orders are cancelled amid any stream, from the merchant and from storefronts, then every cell counts exactly what the reference counts, across a snapshot too', () => {
    const step = fc.oneof({ arbitrary: eventArb.map((e) => ({ ...e, sender: e.dt % 2 === 0 ? ('secret' as const) : undefined })), weight: 10 }, { arbitrary: fc.record({ cancel: fc.constantFrom('o1', 'o2', '7', 'o9') }), weight: 1 });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), fc.nat(120), (steps, cut) => {
        const model = new Attribution(WINDOW, 6);
        const reference = new ReferenceAttribution(WINDOW, 6, STOREFRONT_WIDGETS_PER_DAY);
        const events = timed(steps.flatMap((s) => ('event' in s ? [{ dt: s.dt, event: { ...s.event, ...(s.sender === undefined ? { sender: undefined } : {}) } }] : [])));
        let restored: Attribution | undefined;
        let next = 0;
        steps.forEach((s, i) => {
          if (i === cut) {
            restored = new Attribution(WINDOW, 6);
            restored.restore(structuredClone(model.snapshot()));
          }
          for (const m of restored === undefined ? [model] : [model, restored]) {
            if ('cancel' in s) m.cancelOrder(s.cancel);
            else m.apply(events[next]!, priceOf);
          }
          if ('cancel' in s) reference.cancelOrder(s.cancel);
          else reference.apply(events[next++]!, priceOf);
        });
        expect(sorted(cellsOf(model))).toEqual(sorted(reference.cells));
        expect(sorted(productCellsOf(model))).toEqual(sorted(reference.products));
        expect(sorted(cellsOf(model, 'pins'))).toEqual(sorted(reference.pins));
        if (restored !== undefined) expect(sorted(cellsOf(restored))).toEqual(sorted(cellsOf(model)));
      }),
      { numRuns: 300 },
    );
  });

  test('When a model is restored from its snapshot mid-stream, then it counts the rest exactly as the model that went on', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 80 }), fc.nat(80), (stream, cut) => {
        const events = timed(stream);
        const model = new Attribution(WINDOW, 4);
        model.widgets.register(['pdp', 'w5']);
        for (const event of events.slice(0, cut)) model.apply(event, priceOf);
        const restored = new Attribution(WINDOW, 4);
        restored.restore(structuredClone(model.snapshot()));
        for (const event of events.slice(cut)) {
          model.apply(event, priceOf);
          restored.apply(event, priceOf);
        }
        expect(sorted(cellsOf(restored))).toEqual(sorted(cellsOf(model)));
        expect(sorted(productCellsOf(restored))).toEqual(sorted(productCellsOf(model)));
        expect(sorted(cellsOf(restored, 'pins'))).toEqual(sorted(cellsOf(model, 'pins')));
      }),
      { numRuns: 150 },
    );
  });
});

describe('Attribution rules', () => {
  const at = (days: number) => T0 + days * DAY_MS;
  const day = Math.floor(T0 / DAY_MS);

  test('When a pinned item is shown, clicked from the session’s memory and bought, then each count is also a pin’s; an organic item’s is not', () => {
    const model = new Attribution(WINDOW);
    model.apply({ type: 'impression', productId: '1', sessionId: 's', recId: 'rec_t_0_0_1', metadata: { ruleId: 'summer' }, timestamp: at(0) }, priceOf);
    model.apply({ type: 'impression', productId: '2', sessionId: 's', recId: 'rec_t_0_0_1', timestamp: at(0) }, priceOf);
    for (const productId of ['1', '2']) {
      model.apply({ type: 'click', productId, sessionId: 's', timestamp: at(0) + 1 }, priceOf);
      model.apply({ type: 'purchase', productId, sessionId: 's', sender: 'secret', timestamp: at(0) + 2 }, priceOf);
    }
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([2, 2, 0, 2, 12.5, 0, 0, 2]);
    expect(cellsOf(model, 'pins').get(`${day}|3|(none)|0|0`)).toEqual([1, 1, 0, 1, 10, 0, 0, 1]);
  });

  test('When a purchase comes 7 days after the click, then it counts; 7 days and 1 ms after, it does not', () => {
    const model = new Attribution(WINDOW);
    model.apply({ type: 'click', productId: '1', sessionId: 's', customerId: 'c', recId: 'rec_t_0_0_1', timestamp: at(0) }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's2', customerId: 'c', timestamp: at(7) }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's3', customerId: 'c', timestamp: at(7) + 1 }, priceOf);
    const cells = cellsOf(model);
    // The order counts on its own day; that the click converted, on the click's.
    expect(cells.get(`${day}|3|(none)|0|0`)).toEqual([0, 1, 0, 0, 0, 0, 0, 1]);
    expect(cells.get(`${day + 7}|3|(none)|0|0`)).toEqual([0, 0, 0, 1, 10, 10, 0, 0]);
  });

  test('When an order holds three attributed lines, then it is one order with the revenue of all three', () => {
    const model = new Attribution(WINDOW);
    for (const p of ['1', '2', '3']) model.apply({ type: 'click', productId: p, sessionId: 's', recId: 'rec_b_0_0_1', widgetId: 'pdp', timestamp: at(0) }, priceOf);
    for (const p of ['1', '2', '3']) {
      model.apply({ type: 'purchase', productId: p, sessionId: 's', metadata: { orderId: 'o1', price: 4, quantity: 2 }, timestamp: at(0) + 1000, sender: 'secret' }, priceOf);
    }
    expect(cellsOf(model).get(`${day}|1|pdp|0|0`)).toEqual([0, 3, 0, 1, 24, 0, 0, 3]);
  });

  test('When a purchase comes the day after a click on a storefront widget, then it counts under that widget’s name on its own day', () => {
    const model = new Attribution(WINDOW);
    // Day 1's first storefront name is another widget: the click's index on day 0 means something else there.
    model.apply({ type: 'impression', productId: '2', sessionId: 'x', widgetId: 'other-day', recId: 'rec_t_0_0_1', timestamp: at(1) }, priceOf);
    model.apply({ type: 'impression', productId: '1', sessionId: 's', widgetId: 'pdp', recId: 'rec_t_0_0_1', timestamp: at(0) }, priceOf);
    model.apply({ type: 'click', productId: '1', sessionId: 's', timestamp: at(0) + 1 }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's', metadata: { orderId: 'o' }, timestamp: at(1) + 1, sender: 'secret' }, priceOf);
    const cells = cellsOf(model);
    expect(cells.get(`${day}|3|pdp|0|0`)).toEqual([1, 1, 0, 0, 0, 0, 0, 1]);
    expect(cells.get(`${day + 1}|3|pdp|0|0`)).toEqual([0, 0, 0, 1, 10, 0, 0, 0]);
    expect(cells.get(`${day + 1}|3|other-day|0|0`)).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });

  test('When a public key claims a price and quantity, then the purchase earns at most the catalog price × MAX_STOREFRONT_QUANTITY, and nothing without a catalog price', () => {
    const model = new Attribution(WINDOW);
    for (const p of ['1', '2', '4']) model.apply({ type: 'click', productId: p, sessionId: 's', recId: 'rec_b_0_0_1', timestamp: at(0) }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's', metadata: { price: 1e9, quantity: 1e4 }, timestamp: at(0) + 1 }, priceOf);
    model.apply({ type: 'purchase', productId: '2', sessionId: 's', metadata: { price: 1, quantity: 3 }, timestamp: at(0) + 1 }, priceOf);
    model.apply({ type: 'purchase', productId: '4', sessionId: 's', metadata: { price: 50 }, timestamp: at(0) + 1 }, priceOf);
    const revenue = 10 * MAX_STOREFRONT_QUANTITY + 1 * 3;
    expect(cellsOf(model).get(`${day}|1|(none)|0|0`)).toEqual([0, 3, 0, 3, revenue, revenue, 0, 3]);
  });
});

describe('Attribution: what a click went on to', () => {
  const at = (days: number) => T0 + days * DAY_MS;
  const day = Math.floor(T0 / DAY_MS);

  test('When one click is followed by three purchases with different order ids, then three orders count and the click converted once', () => {
    const model = new Attribution(WINDOW);
    model.apply({ type: 'click', productId: '1', sessionId: 's', recId: 'rec_t_0_0_1', timestamp: at(0) }, priceOf);
    for (const orderId of ['o1', 'o2', 'o3']) model.apply({ type: 'purchase', productId: '1', sessionId: 's', metadata: { orderId }, timestamp: at(0) + 1000 }, priceOf);
    // impressions, clicks, add-to-carts, orders, revenue, storefront revenue, carted clicks, converted clicks
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 1, 0, 3, 30, 30, 0, 1]);
    expect(productCellsOf(model).get(`${day}|1`)).toEqual([0, 1, 0, 3, 30, 30, 0, 1]);
  });

  test("When a card's own add-to-cart button is pressed without a click, then it is the card's click, carted; pressed again under the same key, no second click", () => {
    const model = new Attribution(WINDOW);
    const cart = { type: 'add_to_cart', productId: '1', sessionId: 's', recId: 'rec_t_0_0_1', timestamp: at(0) } as const;
    model.apply(cart, priceOf);
    model.apply({ ...cart, timestamp: at(0) + 1 }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's', timestamp: at(1) }, priceOf);
    model.apply({ ...cart, recId: 'rec_b_0_0_2', timestamp: at(1) + 1 }, priceOf);
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 1, 2, 0, 0, 0, 1, 1]);
    expect(cellsOf(model).get(`${day + 1}|3|(none)|0|0`)).toEqual([0, 0, 0, 1, 10, 10, 0, 0]);
    // Another recommendation's card: a click of its own.
    expect(cellsOf(model).get(`${day + 1}|1|(none)|0|0`)).toEqual([0, 1, 1, 0, 0, 0, 1, 0]);
  });

  test("When a platform's order names the recommendation a product came from, then it is that recommendation's order and revenue, not a click; the shopper's click under it is converted", () => {
    const model = new Attribution(WINDOW);
    // The storefront's click, under the session; the order comes signed, in a session of its own.
    model.apply({ type: 'click', productId: '1', sessionId: 'browser', customerId: 'c', recId: 'rec_t_0_0_1', widgetId: 'pdp', timestamp: at(0) }, priceOf);
    const order = { type: 'purchase', sessionId: 'shopify-order-9', customerId: 'c', sender: 'secret', widgetId: 'pdp', metadata: { orderId: '9', price: 8, quantity: 2 } } as const;
    model.apply({ ...order, productId: '1', recId: 'rec_t_0_0_1', timestamp: at(0) + 5 }, priceOf);
    // A product taken from another recommendation the order's customer never clicked as this customer.
    model.apply({ ...order, productId: '2', recId: 'rec_b_0_0_2', timestamp: at(0) + 5 }, priceOf);
    expect(cellsOf(model).get(`${day}|3|pdp|0|0`)).toEqual([0, 1, 0, 1, 16, 0, 0, 1]);
    expect(cellsOf(model).get(`${day}|1|pdp|0|0`)).toEqual([0, 0, 0, 1, 16, 0, 0, 0]);
  });

  test('When an order is cancelled, then its orders and revenue leave every cell they were counted in, and a purchase of it delivered later counts nothing', () => {
    const model = new Attribution(WINDOW);
    const purchase = { type: 'purchase', sessionId: 's', sender: 'secret', recId: 'rec_t_0_0_1', metadata: { orderId: '9', price: 5 } } as const;
    model.apply({ ...purchase, productId: '1', timestamp: at(0) }, priceOf);
    model.apply({ ...purchase, productId: '2', metadata: { orderId: '10', price: 7 }, timestamp: at(0) + 1 }, priceOf);
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 0, 0, 2, 12, 0, 0, 0]);
    model.cancelOrder('9');
    model.cancelOrder('9');
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 0, 0, 1, 7, 0, 0, 0]);
    expect(productCellsOf(model).get(`${day}|1`)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    model.apply({ ...purchase, productId: '3', timestamp: at(0) + 2 }, priceOf);
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 0, 0, 1, 7, 0, 0, 0]);
    // Cancelled before it was delivered (webhooks come in any order): its purchases never count.
    model.cancelOrder('11');
    model.apply({ ...purchase, productId: '1', metadata: { orderId: '11', price: 3 }, timestamp: at(0) + 3 }, priceOf);
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 0, 0, 1, 7, 0, 0, 0]);
  });

  test("When a customer's click converts in another session, then the click's entry in its own session is converted too", () => {
    const model = new Attribution(WINDOW);
    model.apply({ type: 'click', productId: '1', sessionId: 's1', customerId: 'c', recId: 'rec_t_0_0_1', timestamp: at(0) }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's2', customerId: 'c', metadata: { orderId: 'o1' }, timestamp: at(0) + 1 }, priceOf);
    model.apply({ type: 'purchase', productId: '1', sessionId: 's1', metadata: { orderId: 'o2' }, timestamp: at(0) + 2 }, priceOf);
    expect(cellsOf(model).get(`${day}|3|(none)|0|0`)).toEqual([0, 1, 0, 2, 20, 20, 0, 1]);
  });

  test('When any stream of events is applied, then no cell counts more carted or converted clicks than clicks', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 150 }), fc.integer({ min: 1, max: 6 }), (stream, shoppers) => {
        const model = new Attribution(WINDOW, shoppers);
        for (const event of timed(stream)) model.apply(event, priceOf);
        for (const cells of [cellsOf(model), cellsOf(model, 'pins'), productCellsOf(model)]) {
          for (const [, cell] of cells) {
            expect(cell[CARTED_CLICKS]).toBeLessThanOrEqual(cell[CLICKS]!);
            expect(cell[CONVERTED_CLICKS]).toBeLessThanOrEqual(cell[CLICKS]!);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('Attribution bounds', () => {
  test('When events name 300 unregistered widgets in a day, then the day names the first STOREFRONT_WIDGETS_PER_DAY, a registered widget and the next day still get their names', () => {
    const model = new Attribution(WINDOW);
    model.widgets.register(['home']);
    const impression = (widgetId: string, timestamp: number): AttributedEvent => ({ type: 'impression', productId: '1', sessionId: 's', widgetId, recId: 'rec_t_0_0_1', timestamp });
    for (let i = 0; i < 300; i++) model.apply(impression(`w${i}`, T0), priceOf);
    model.apply(impression('home', T0), priceOf);
    model.apply(impression('pdp', T0 + DAY_MS), priceOf);
    const cells = cellsOf(model);
    const day = Math.floor(T0 / DAY_MS);
    expect(cells.get(`${day}|3|(other)|0|0`)![IMPRESSIONS]).toBe(300 - STOREFRONT_WIDGETS_PER_DAY);
    expect(cells.get(`${day}|3|w${STOREFRONT_WIDGETS_PER_DAY - 1}|0|0`)![IMPRESSIONS]).toBe(1);
    expect(cells.get(`${day}|3|home|0|0`)![IMPRESSIONS]).toBe(1);
    expect(cells.get(`${day + 1}|3|pdp|0|0`)![IMPRESSIONS]).toBe(1);
  });

  test('When a snapshot from before per-day widget names is restored, then its names and five counters per cell still read (the rest 0)', () => {
    const model = new Attribution(WINDOW);
    model.apply({ type: 'click', productId: '1', sessionId: 's', recId: 'rec_t_0_0_1', timestamp: T0 }, priceOf);
    const { registeredWidgets: _r, dayWidgets: _d, ...current } = model.snapshot();
    // That version named widgets for good (from index 2) and kept five counters per cell.
    const day = Math.floor(T0 / DAY_MS);
    const oldCells = new Float64Array([day * 2 ** 32 + packKey(3, 2, 0, 0)]);
    const oldRows = new Float64Array([7, 3, 0, 1, 42]);
    const old = { ...current, widgets: ['legacy-home'], cells: { cells: new Uint8Array(oldCells.buffer), rows: new Uint8Array(oldRows.buffer) } };
    const restored = new Attribution(WINDOW);
    restored.restore(old);
    expect(cellsOf(restored).get(`${day}|3|legacy-home|0|0`)).toEqual([7, 3, 0, 1, 42, 0, 0, 0]);
  });

  test('When events span more days than the bound, then the newest MAX_DAYS are kept and older events are not counted', () => {
    const model = new Attribution(WINDOW);
    for (let d = 0; d < MAX_DAYS + 20; d++) model.apply({ type: 'impression', productId: '1', sessionId: 's', recId: 'rec_t_0_0_1', timestamp: T0 + d * DAY_MS }, priceOf);
    model.apply({ type: 'impression', productId: '1', sessionId: 's', recId: 'rec_t_0_0_1', timestamp: T0 }, priceOf);
    expect(model.cells.dayCount).toBe(MAX_DAYS);
    const days: number[] = [];
    model.cells.forEach(-Infinity, Infinity, (d) => days.push(d));
    expect(Math.min(...days)).toBe(Math.floor(T0 / DAY_MS) + 20);
  });

  test('When forged recIds name more keys than the table holds, then the cells stay bounded and the rest count in the day’s overflow cell', () => {
    const model = new Attribution(WINDOW);
    const extra = 1000;
    for (let i = 0; i < MAX_CELLS + extra; i++) {
      const experiment = 1 + (i % 46_000);
      const variant = 1 + Math.floor(i / 46_000);
      model.apply({ type: 'click', productId: '1', sessionId: `s${i}`, recId: `rec_t_${experiment.toString(36)}_${variant.toString(16)}_1`, timestamp: T0 }, priceOf);
    }
    expect(model.cells.cellCount).toBe(MAX_CELLS + 1);
    const row = model.cells.row(Math.floor(T0 / DAY_MS), OVERFLOW_KEY);
    expect(model.cells.rows[row * FIELDS + CLICKS]).toBe(extra);
    expect(model.cells.rows[row * FIELDS + ORDERS]).toBe(0);
    expect(model.cells.rows[row * FIELDS + REVENUE]).toBe(0);
  });
});
