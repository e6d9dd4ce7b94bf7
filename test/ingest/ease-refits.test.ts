import { describe, expect, test } from 'vitest';
import type { EaseRefitConfig } from '../../src/config.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { EaseRefits, REST_FACTOR } from '../../src/ingest/ease-refits.js';
import { ShopEngines } from '../../src/ingest/shop-engines.js';
import { DAY, product, T0 } from '../engine/fixtures.js';

function shops(): ShopEngines {
  const engines = new ShopEngines(DEFAULT_ENGINE_CONFIG);
  const engine = engines.get('shop');
  for (const id of ['a', 'b', 'x', 'y']) engine.upsertProduct(product(id));
  buy(engines, 5);
  return engines;
}

function buy(engines: ShopEngines, shoppers: number, from = 0): void {
  const engine = engines.get('shop');
  for (let i = from; i < from + shoppers; i++) {
    for (const id of i % 2 === 0 ? ['a', 'b'] : ['x', 'y']) engine.apply({ type: 'purchase', productId: id, sessionId: `s${i}`, customerId: `c${i}`, timestamp: T0 - DAY });
  }
}

const config = (overrides: Partial<EaseRefitConfig> = {}): EaseRefitConfig => ({ intervalMs: 0, afterEvents: 10, maxItems: 100, neighbors: 8, lambda: 1, ...overrides });

describe('EASE refit schedule', () => {
  test('When enough events arrived since the last refit, then the shop is refitted, and not again until more arrive', async () => {
    const engines = shops();
    const lines: string[] = [];
    const refits = new EaseRefits(engines, config(), () => 0, (line) => lines.push(line));
    expect(await refits.refitDue()).toBe(1);
    expect(engines.get('shop').ease.ready).toBe(true);
    expect(lines[0]).toMatch(/EASE refit of shop "shop": 4 products, 5 shoppers/);
    expect(await refits.refitDue()).toBe(0);
    buy(engines, 2, 5); // 4 events: fewer than 10
    expect(await refits.refitDue()).toBe(0);
    buy(engines, 3, 7);
    expect(await refits.refitDue()).toBe(1);
  });

  test('When the interval passed with new events, then the shop is refitted even below the event count', async () => {
    const engines = shops();
    let now = 0;
    const refits = new EaseRefits(engines, config({ intervalMs: 60_000, afterEvents: 1000 }), () => now, () => {});
    expect(await refits.refitDue()).toBe(1); // never refitted: due at once
    buy(engines, 1, 5);
    now = 30_000;
    expect(await refits.refitDue()).toBe(0);
    now = 60_000;
    expect(await refits.refitDue()).toBe(1);
  });

  test('When a refit took a while, then the next waits REST_FACTOR times as long after it, however many events arrive', async () => {
    const engines = shops();
    let now = 0;
    const refits = new EaseRefits(engines, config(), () => now, () => {});
    const first = refits.refitDue();
    now = 10_000; // the refit ends 10 s after it began
    expect(await first).toBe(1);
    buy(engines, 50, 5);
    now = 10_000 + REST_FACTOR * 10_000 - 1;
    expect(await refits.refitDue()).toBe(0);
    now = 10_000 + REST_FACTOR * 10_000;
    expect(await refits.refitDue()).toBe(1);
  });

  test('When the schedule stops during a refit, then the refit ends and installs nothing', async () => {
    const engines = shops();
    const refits = new EaseRefits(engines, config(), () => 0, () => {});
    const running = refits.refitDue();
    await refits.stop();
    expect(await running).toBe(0);
    expect(engines.get('shop').ease.ready).toBe(false);
  });
});
