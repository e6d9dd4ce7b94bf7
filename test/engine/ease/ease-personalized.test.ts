import { describe, expect, test } from 'vitest';
import { AnswerCache } from '../../../src/engine/answer-cache.js';
import { fitInput } from '../../../src/engine/ease/fit-input.js';
import { fitEase } from '../../../src/engine/ease/solver.js';
import type { EventType } from '../../../src/engine/event.js';
import { recommend, type Recommendation } from '../../../src/engine/recommend.js';
import { ShopEngine } from '../../../src/engine/shop-engine.js';
import { ask, DAY, engineWith, idsOf, strategiesOf, T0 } from '../fixtures.js';

function act(engine: ShopEngine, customerId: string, type: EventType, productId: string, t = T0 - DAY): void {
  engine.apply({ type, productId, sessionId: `s-${customerId}`, customerId, timestamp: t });
}

/** Fits EASE on what the engine holds now; install() swaps it in later, as a refit finishing would. */
function refit(engine: ShopEngine, maxItems = 100, lambda = 1) {
  const input = fitInput(engine, maxItems)!;
  const rows = fitEase(input.items.length, input.histories, lambda, 8)!;
  return { input, install: () => engine.installEase({ items: input.items, rows }) };
}

/** Peers buy x with y, and a with b. */
function store(): ShopEngine {
  const engine = engineWith(['a', 'b', 'x', 'y', 'z']);
  for (let i = 0; i < 5; i++) {
    act(engine, `xy${i}`, 'purchase', 'x');
    act(engine, `xy${i}`, 'purchase', 'y');
    act(engine, `ab${i}`, 'purchase', 'a');
    act(engine, `ab${i}`, 'purchase', 'b');
  }
  return engine;
}

describe('personalized with an EASE fit', () => {
  test('When a fit is installed, then a shopper who bought a gets its EASE neighbour b first, labelled personalized, and never a', () => {
    const engine = store();
    act(engine, 'me', 'purchase', 'a');
    refit(engine).install();
    expect(engine.ease.size).toBe(4);
    const result = ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0);
    expect(idsOf(result)[0]).toBe('b');
    expect(strategiesOf(result)[0]).toBe('personalized');
    expect(idsOf(result)).not.toContain('a');
  });

  test('When the shopper buys during a refit, then the next answer reflects it at once, before and after the swap', () => {
    const engine = store();
    act(engine, 'me', 'purchase', 'a');
    const pending = refit(engine); // the input is taken: a refit is under way
    act(engine, 'me', 'purchase', 'x'); // acknowledged while it runs
    const during = idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0));
    expect(during).not.toContain('x');
    expect(during).toContain('y');
    pending.install();
    const after = idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0));
    expect(after).not.toContain('x');
    expect(after.slice(0, 2).sort()).toEqual(['b', 'y']);
  });

  test('When a product is outside the fit, then the real-time model still brings it', () => {
    const engine = store();
    act(engine, 'me', 'purchase', 'a');
    refit(engine).install();
    // z is new since the fit: only the real-time model knows it pairs with a.
    for (let i = 0; i < 5; i++) act(engine, `az${i}`, 'purchase', 'a'), act(engine, `az${i}`, 'purchase', 'z');
    expect(engine.ease.has(engine.catalog.denseOf('z')!)).toBe(false);
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0))).toContain('z');
  });

  test('When a fit is swapped in, then an answer cached before it is not served again', () => {
    const engine = store();
    act(engine, 'me', 'purchase', 'a');
    const cache = new AnswerCache<Recommendation>(1 << 20, 60_000, () => 100);
    const request = { strategy: 'personalized' as const, customerId: 'me', limit: 8, exclude: [] };
    cache.set(engine, 'me', T0, recommend(engine, request, T0), engine.scratch.reads);
    expect(cache.get(engine, 'me', T0)).toBeDefined();
    refit(engine).install();
    expect(cache.get(engine, 'me', T0)).toBeUndefined();
  });

  test('When the strongest real-time candidate, excluded from the answer, gains a history elsewhere, then the cached answer is not served again (the blend is relative to it)', () => {
    const engine = store();
    for (let i = 0; i < 2; i++) {
      act(engine, `az${i}`, 'purchase', 'a');
      act(engine, `az${i}`, 'purchase', 'z');
    }
    act(engine, 'me', 'purchase', 'a');
    refit(engine).install();
    const cache = new AnswerCache<Recommendation>(1 << 20, 60_000, () => 100);
    // b is a's strongest neighbour: it sets the real-time scale even though the request excludes it.
    const request = { strategy: 'personalized' as const, customerId: 'me', limit: 1, exclude: ['b'] };
    const before = recommend(engine, request, T0);
    cache.set(engine, 'me', T0, before, engine.scratch.reads);
    expect(cache.get(engine, 'me', T0)).toBe(before);
    act(engine, 'other', 'purchase', 'b'); // b alone: neither a's row nor anything returned changes
    const fresh = recommend(engine, request, T0);
    expect(fresh.items.map((i) => i.score)).not.toEqual(before.items.map((i) => i.score));
    expect(cache.get(engine, 'me', T0)).toBeUndefined();
  });

  test('When a second fit is swapped in, then answers read only the new one', () => {
    const engine = store();
    act(engine, 'me', 'purchase', 'a');
    refit(engine).install();
    const first = engine.ease.fit!;
    refit(engine, 2).install(); // the two most popular products only
    expect(engine.ease.fit).not.toBe(first);
    expect(engine.ease.size).toBe(2);
    expect(idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0))[0]).toBe('b');
  });
});

describe('EASE fit in engine snapshots', () => {
  test('When an engine with a fit is snapshotted and restored, then the restored one answers personalized exactly as the original', () => {
    const engine = store();
    act(engine, 'me', 'purchase', 'a');
    act(engine, 'me', 'view', 'x');
    refit(engine).install();
    const restored = ShopEngine.restore(engine.config, structuredClone(engine.snapshot()))!;
    for (const id of ['a', 'b', 'x', 'y', 'z']) restored.upsertProduct(engine.catalog.product(engine.catalog.denseOf(id)!)!);
    expect(restored.ease.size).toBe(engine.ease.size);
    const request = { strategy: 'personalized' as const, customerId: 'me', limit: 8 };
    expect(ask(restored, request, T0)).toEqual(ask(engine, request, T0));
  });
});
