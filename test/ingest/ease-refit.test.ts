import { describe, expect, test } from 'vitest';
import type { EventType } from '../../src/engine/event.js';
import type { ShopEngine } from '../../src/engine/shop-engine.js';
import { refitEase } from '../../src/ingest/ease-refit.js';
import { ask, DAY, engineWith, idsOf, T0 } from '../engine/fixtures.js';

function act(engine: ShopEngine, customerId: string, type: EventType, productId: string, t = T0 - DAY): void {
  engine.apply({ type, productId, sessionId: `s-${customerId}`, customerId, timestamp: t });
}

/** Peers buy x with y, and a with b; `me` bought a. */
function store(): ShopEngine {
  const engine = engineWith(['a', 'b', 'x', 'y']);
  for (let i = 0; i < 5; i++) {
    act(engine, `xy${i}`, 'purchase', 'x');
    act(engine, `xy${i}`, 'purchase', 'y');
    act(engine, `ab${i}`, 'purchase', 'a');
    act(engine, `ab${i}`, 'purchase', 'b');
  }
  act(engine, 'me', 'purchase', 'a');
  return engine;
}

const personal = (engine: ShopEngine) => idsOf(ask(engine, { strategy: 'personalized', customerId: 'me', limit: 8 }, T0));

describe('EASE refit in a worker thread', () => {
  test('When a refit runs, then answers read the old model until the swap and the new one after it, never a mix', async () => {
    const engine = store();
    const refit = refitEase(engine, { maxItems: 100, neighbors: 8, lambda: 1 });
    // The worker solves while the event loop keeps answering from the model as it was.
    expect(engine.ease.ready).toBe(false);
    const before = personal(engine);
    await new Promise((resolve) => setImmediate(resolve));
    expect(engine.ease.ready).toBe(false);
    expect(personal(engine)).toEqual(before);
    const result = (await refit)!;
    expect(result).toMatchObject({ items: 4, shoppers: 11, matrixBytes: 4 * 16 }) // n² single-precision entries;
    expect(engine.ease.ready).toBe(true);
    expect(engine.ease.size).toBe(4);
    expect(personal(engine)[0]).toBe('b');
  });

  test('When an event is acknowledged during a refit, then personalized reflects it at once and after the swap', async () => {
    const engine = store();
    const refit = refitEase(engine, { maxItems: 100, neighbors: 8, lambda: 1 });
    act(engine, 'me', 'purchase', 'x');
    expect(personal(engine)).toContain('y');
    expect(personal(engine)).not.toContain('x');
    await refit;
    const after = personal(engine);
    expect(after).not.toContain('x');
    expect(after.slice(0, 2).sort()).toEqual(['b', 'y']);
  });

  test('When λ cannot make the matrix invertible, then the refit fails and the installed model stays', async () => {
    const engine = store();
    await refitEase(engine, { maxItems: 100, neighbors: 8, lambda: 1 });
    const fit = engine.ease.fit;
    await expect(refitEase(engine, { maxItems: 100, neighbors: 8, lambda: -1000 })).rejects.toThrow(/not positive definite/);
    expect(engine.ease.fit).toBe(fit);
  });
});
