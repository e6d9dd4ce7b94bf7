import { describe, expect, test } from 'vitest';
import type { EaseRefitConfig } from '../../src/config.js';
import { DEFAULT_ENGINE_CONFIG } from '../../src/config.js';
import { BUSY_LIMIT, EaseRefits, LOADING_EVENTS_PER_SECOND, MAX_DEFER_MS, REST_FACTOR, processRoom, tuningLine, type Room } from '../../src/ingest/ease-refits.js';
import type { TuningReport } from '../../src/engine/tuning/tuned-settings.js';
import { ShopEngines } from '../../src/engine/shop-engines.js';
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

/** A process with cores to spare: refits never wait for room (the default measures this process). */
const roomy = (): Room => ({ busy: 0, cores: 4 });

const config = (overrides: Partial<EaseRefitConfig> = {}): EaseRefitConfig => ({ intervalMs: 0, afterEvents: 10, maxItems: 100, neighbors: 8, lambda: 1, timeoutMs: 0, tuningBudgetMs: 0, ...overrides });

describe('EASE refit schedule', () => {
  test('When enough events arrived since the last refit, then the shop is refitted, and not again until more arrive', async () => {
    const engines = shops();
    const lines: string[] = [];
    const refits = new EaseRefits(engines, config(), () => 0, (line) => lines.push(line), { room: roomy });
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
    const refits = new EaseRefits(engines, config({ intervalMs: 60_000, afterEvents: 1000 }), () => now, () => {}, { room: roomy });
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
    const refits = new EaseRefits(engines, config(), () => now, () => {}, { room: roomy });
    const first = refits.refitDue();
    now = 10_000; // the refit ends 10 s after it began
    expect(await first).toBe(1);
    buy(engines, 50, 5);
    now = 10_000 + REST_FACTOR * 10_000 - 1;
    expect(await refits.refitDue()).toBe(0);
    now = 10_000 + REST_FACTOR * 10_000;
    expect(await refits.refitDue()).toBe(1);
  });

  test('When a shop is being loaded, then its refit waits (said once) until a look finds the load over, and fits all of it', async () => {
    const engines = shops();
    const lines: string[] = [];
    let now = 0;
    const announced: boolean[] = [];
    const refits = new EaseRefits(engines, config(), () => now, (line) => lines.push(line), { room: roomy, mayRefit: () => true, announce: (running) => announced.push(running) });
    const load = (LOADING_EVENTS_PER_SECOND * 10) / 2 + 1; // shoppers, two events each: just over the rate for 10 s
    buy(engines, load, 5);
    now = 10_000;
    expect(await refits.refitDue()).toBe(0);
    buy(engines, load, 5 + load);
    now = 20_000;
    expect(await refits.refitDue()).toBe(0);
    expect(lines).toEqual([expect.stringMatching(/^EASE refit of shop "shop" waits for its load to end \(\d+ events a second; at most 10 minutes\)$/)]);
    expect(announced).toEqual([]);
    buy(engines, 10, 5 + 2 * load); // a trickle: the load is over
    now = 30_000;
    expect(await refits.refitDue()).toBe(1);
    expect(lines[1]).toMatch(new RegExp(`^EASE refit of shop "shop": 4 products, ${5 + 2 * load + 10} shoppers`));
    expect(announced).toEqual([true, false]);
  });

  test('When a load begins a few seconds before a look, then the rate sampled over those seconds holds the refit, not the diluted average', async () => {
    const engines = shops();
    let now = 0;
    const refits = new EaseRefits(engines, config(), () => now, () => {}, { room: roomy });
    refits.sample();
    now = 7_000;
    refits.sample(); // quiet until now
    const load = LOADING_EVENTS_PER_SECOND * 1.5; // shoppers, two events each: 3 times the rate over the last 2 s, 60 % of it over 10 s
    buy(engines, load, 5);
    now = 9_000;
    refits.sample();
    now = 10_000;
    expect(await refits.refitDue()).toBe(0);
    buy(engines, 10, 5 + load); // a trickle: the load is over
    now = 15_000;
    refits.sample();
    now = 20_000;
    expect(await refits.refitDue()).toBe(1);
  });

  test('When a shop is loaded without pause, then its refit runs after MAX_DEFER_MS all the same', async () => {
    const engines = shops();
    let now = 0;
    const refits = new EaseRefits(engines, config(), () => now, () => {}, { room: roomy });
    let shoppers = 5;
    const perLook = LOADING_EVENTS_PER_SECOND * 60; // events in a minute at twice the rate
    for (now = 60_000; now < MAX_DEFER_MS + 60_000; now += 60_000) {
      buy(engines, perLook, shoppers);
      shoppers += perLook;
      expect(await refits.refitDue()).toBe(now - 60_000 >= MAX_DEFER_MS ? 1 : 0);
    }
  });

  test('When a shop is created after the last look, then the events it got since count towards its rate', async () => {
    const engines = new ShopEngines(DEFAULT_ENGINE_CONFIG);
    let now = 0;
    const refits = new EaseRefits(engines, config(), () => now, () => {}, { room: roomy });
    refits.start(3_600_000);
    try {
      now = 5_000;
      expect(await refits.refitDue()).toBe(0); // no shop yet
      const engine = engines.get('shop');
      for (const id of ['a', 'b', 'x', 'y']) engine.upsertProduct(product(id));
      buy(engines, LOADING_EVENTS_PER_SECOND * 5, 0); // 10,000 events in the 5 s since the last look
      now = 10_000;
      expect(await refits.refitDue()).toBe(0);
      now = 20_000;
      expect(await refits.refitDue()).toBe(1);
    } finally {
      await refits.stop();
    }
  });

  test('When the schedule stops during a refit, then the refit ends and installs nothing', async () => {
    const engines = shops();
    const refits = new EaseRefits(engines, config(), () => 0, () => {}, { room: roomy });
    const running = refits.refitDue();
    await refits.stop();
    expect(await running).toBe(0);
    expect(engines.get('shop').ease.ready).toBe(false);
  });

  test('When the process has one core and its event loop is busy, then a due refit waits (said once), and runs once the core has room', async () => {
    const engines = shops();
    const lines: string[] = [];
    let room: Room = { busy: BUSY_LIMIT + 0.1, cores: 1 };
    let now = 0;
    const refits = new EaseRefits(engines, config(), () => now, (line) => lines.push(line), { room: () => room });
    expect(await refits.refitDue()).toBe(0);
    now = 10_000;
    expect(await refits.refitDue()).toBe(0);
    expect(engines.get('shop').ease.ready).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/^EASE refits wait: the process has one core and its event loop was 90 % busy/)]);
    // Busy, but with more cores the refit's thread has one of its own: no wait.
    room = { busy: 1, cores: 2 };
    expect(await refits.refitDue()).toBe(1);
  });

  test('When the one core stays busy, then a due refit runs after MAX_DEFER_MS all the same', async () => {
    const engines = shops();
    let now = 0;
    const refits = new EaseRefits(engines, config(), () => now, () => {}, { room: () => ({ busy: 1, cores: 1 }) });
    expect(await refits.refitDue()).toBe(0);
    now = MAX_DEFER_MS - 1;
    expect(await refits.refitDue()).toBe(0);
    now = MAX_DEFER_MS;
    expect(await refits.refitDue()).toBe(1);
  });

  test('When the one core is calm, then a due refit runs at once', async () => {
    const engines = shops();
    const refits = new EaseRefits(engines, config(), () => 0, () => {}, { room: () => ({ busy: BUSY_LIMIT, cores: 1 }) });
    expect(await refits.refitDue()).toBe(1);
  });

  test('Given this process, then processRoom() reports its event loop\'s busy fraction since the last look and its cores', async () => {
    const room = processRoom();
    room();
    const spin = performance.now() + 60;
    while (performance.now() < spin); // busy
    const busy = room();
    await new Promise((resolve) => setTimeout(resolve, 120)); // idle
    const calm = room();
    expect(busy.busy).toBeGreaterThan(0.9);
    expect(calm.busy).toBeLessThan(0.5);
    expect(busy.cores).toBeGreaterThanOrEqual(1);
  });

  test('When a refit runs past its timeout, then it is ended unfinished (said in the log), nothing is installed, and the shop rests REST_FACTOR times as long', async () => {
    const engines = shops();
    const lines: string[] = [];
    let now = 0;
    // 1 ms: the refit's thread cannot even start in that time.
    const refits = new EaseRefits(engines, config({ timeoutMs: 1 }), () => now, (line) => lines.push(line), { room: roomy });
    const running = refits.refitDue();
    now = 1000; // when it ends
    expect(await running).toBe(0);
    expect(engines.get('shop').ease.ready).toBe(false);
    expect(lines).toEqual([expect.stringMatching(/^EASE refit of shop "shop" ended unfinished after .* minutes \(PAIRWISE_EASE_REFIT_TIMEOUT_MINUTES\), its matrix freed/)]);
    expect(refits.refitting).toBe(false);
    buy(engines, 20, 5);
    now = 1000 + REST_FACTOR * 1000 - 1;
    expect(await refits.refitDue()).toBe(0);
  });
});

describe("the refit's log line", () => {
  const settings = { momentumExponent: 1, realTimeWeight: 0, historyExponent: 0.5, lambda: 500 };
  const report = (overrides: Partial<TuningReport>): TuningReport => ({
    decision: 'tuned',
    settings,
    defaults: settings,
    best: settings,
    scores: { chosen: 0.1512, default: 0.1401, best: 0.1512, popularity: 0.1518 },
    standardError: 0.004,
    margin: 2,
    shoppers: 631,
    settingsTried: 36,
    lambdasTried: [500],
    ms: 2100,
    peakBytes: 0,
    ...overrides,
  });

  test('When settings were tuned but best sellers scored higher, then the line says what was measured and that best sellers did as well or better', () => {
    const line = tuningLine(report({}));
    expect(line).toContain("tuning on 631 shoppers' newest purchases in 2.1 s: settings tuned");
    expect(line).toContain('nDCG@10 in use 0.1512, defaults 0.1401, best sellers 0.1518 (as good or better)');
    expect(line).not.toContain('tuning tuned');
  });

  test('When a small shop had too few shoppers to validate on, then the line says nothing was measured, without empty scores', () => {
    const line = tuningLine(report({ decision: 'too-little-data', shoppers: 4, scores: { chosen: null, default: null, best: null, popularity: null } }));
    expect(line).toBe("; tuning: 4 shoppers' newest purchases to validate on, too few to measure: the defaults kept (momentum 1, real-time weight 0, history exponent 0.5, λ 500)");
  });
});
