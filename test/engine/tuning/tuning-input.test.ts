// The tuner's facts as fit-input.ts reads them from a real engine.
import { describe, expect, test } from 'vitest';
import { fitInput } from '../../../src/engine/ease/fit-input.js';
import { momentumOf } from '../../../src/engine/momentum.js';
import { DAY, engineWith, T0 } from '../fixtures.js';

describe('fitInput with a time (the tuner\'s facts)', () => {
  const engine = engineWith(['a', 'b', 'c', 'd']);
  const buy = (customerId: string, productId: string, t: number, type: 'purchase' | 'view' = 'purchase') =>
    engine.apply({ type, productId, sessionId: `s-${customerId}`, customerId, timestamp: t, metadata: { orderId: `${customerId}-${productId}` } });
  buy('me', 'b', T0 - 40 * DAY);
  buy('me', 'c', T0 - 30 * DAY, 'view');
  buy('me', 'a', T0 - 7 * DAY);
  buy('other', 'a', T0 - 100 * DAY);
  buy('other', 'd', T0 - 100 * DAY);
  const input = fitInput(engine, 10, T0)!;
  const tuning = input.tuning!;
  const dense = (id: string) => engine.catalog.denseOf(id)!;
  const entry = (s: number, id: string) => {
    const e = Array.from(input.items).indexOf(dense(id));
    for (let k = input.histories.starts[s]!; k < input.histories.starts[s + 1]!; k++) if (input.histories.items[k] === e) return k;
    throw new Error(`${id} is not in row ${s}`);
  };

  test('When a shopper bought b, viewed c, then bought a, then their entries say what they bought in which order', () => {
    expect(tuning.entries.purchaseOrder[entry(0, 'b')]).toBe(0);
    expect(tuning.entries.purchaseOrder[entry(0, 'a')]).toBe(1);
    expect(tuning.entries.purchaseOrder[entry(0, 'c')]).toBe(-1);
  });

  test('When purchases are 7 and 40 days old, then each one\'s weight in recent sales is read back from its affinity (14-day half-life)', () => {
    expect(tuning.entries.recency[entry(0, 'a')]).toBeCloseTo(2 ** (-7 / 14), 5);
    expect(tuning.entries.recency[entry(0, 'b')]).toBeCloseTo(2 ** (-40 / 14), 5);
    expect(tuning.entries.recency[entry(0, 'c')]).toBe(0);
  });

  test('When strengths are read, then each is the affinity relative to the shopper\'s strongest', () => {
    expect(tuning.entries.strengths[entry(0, 'a')]).toBe(1);
    const strongest = 6 * 2 ** (-7 / 30);
    expect(tuning.entries.strengths[entry(0, 'b')]).toBeCloseTo((6 * 2 ** (-40 / 30)) / strongest, 5);
    expect(tuning.entries.strengths[entry(0, 'c')]).toBeCloseTo(2 ** (-30 / 30) / strongest, 5);
  });

  test('When the item counts are read, then they give momentum exactly as personalized computes it', () => {
    const scales = engine.sales.scalesAt(T0);
    input.items.forEach((id, e) => {
      for (const exponent of [0.5, 1]) {
        const fromFacts = momentumOf(tuning.items.recent[e]!, tuning.items.long[e]!, tuning.items.ever[e]!, exponent);
        expect(fromFacts).toBeCloseTo(engine.sales.momentum(id, scales, exponent), 5);
      }
    });
  });

  test('When no time is given, then no facts are read', () => {
    expect(fitInput(engine, 10)!.tuning).toBeUndefined();
  });

  test('When a purchase is the only event of its product, then its time is exact (once); bought twice or viewed too, or only viewed, it is not', () => {
    const shop = engineWith(['a', 'b', 'c', 'd']);
    const at = (type: 'purchase' | 'view', productId: string, t: number, order: string) =>
      shop.apply({ type, productId, sessionId: 's-me', customerId: 'me', timestamp: t, metadata: { orderId: order } });
    at('purchase', 'a', T0 - 20 * DAY, 'o1');
    at('purchase', 'b', T0 - 20 * DAY, 'o1');
    at('purchase', 'b', T0 - 5 * DAY, 'o2');
    at('view', 'c', T0 - 6 * DAY, 'o2');
    at('purchase', 'c', T0 - 5 * DAY, 'o2');
    at('view', 'd', T0 - 5 * DAY, 'o2');
    const facts = fitInput(shop, 10, T0)!;
    const once = (id: string) => {
      const e = Array.from(facts.items).indexOf(shop.catalog.denseOf(id)!);
      return facts.tuning!.entries.once[Array.from(facts.histories.items).indexOf(e)];
    };
    expect(['a', 'b', 'c', 'd'].map(once)).toEqual([1, 0, 0, 0]);
  });

  test("When the shop's recency is off, then strengths are the undecayed totals relative to the strongest, as personalized weighs the history then", () => {
    const shop = engineWith(['a', 'b'], { recency: 'off' });
    shop.apply({ type: 'purchase', productId: 'a', sessionId: 's-me', customerId: 'me', timestamp: T0 - 60 * DAY, metadata: { orderId: 'o1' } });
    shop.apply({ type: 'purchase', productId: 'a', sessionId: 's-me', customerId: 'me', timestamp: T0 - 50 * DAY, metadata: { orderId: 'o2' } });
    shop.apply({ type: 'view', productId: 'b', sessionId: 's-me', customerId: 'me', timestamp: T0 - DAY });
    const facts = fitInput(shop, 10, T0)!;
    const strength = (id: string) => facts.tuning!.entries.strengths[Array.from(facts.histories.items).indexOf(Array.from(facts.items).indexOf(shop.catalog.denseOf(id)!))];
    expect(strength('a')).toBe(1); // 2 purchases (12), decayed below the fresh view with recency on
    expect(strength('b')).toBeCloseTo(1 / 12, 6);
  });
});
