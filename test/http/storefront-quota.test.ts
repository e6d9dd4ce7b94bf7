// The storefront budget: what a shop's public key may store in a UTC day, in events and bytes. Past
// it a write stores nothing and gets 429 storefront_quota with Retry-After until midnight (UTC);
// the secret key is never charged; /metrics and the dashboard show the day's count. The service's
// clock is pinned.
import { afterEach, describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { expectProblem } from '../support/problem.js';
import { startTestService, type TestService } from '../support/service.js';
import { StreamClient } from '../ws/stream-client.js';

/** One minute before midnight, UTC. */
const LATE = Date.parse('2026-03-01T23:59:00.000Z');

describe('the storefront budget', () => {
  const started: TestService[] = [];
  let now = LATE;
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  async function start(env: Record<string, string>): Promise<TestService> {
    now = LATE;
    const t = await startTestService({ env: { PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '0', PAIRWISE_STOREFRONT_MB_PER_DAY: '0', ...env }, clock: () => now });
    started.push(t);
    return t;
  }

  let n = 0;
  /** `count` view events with fresh messageIds (and `metadataBytes` of metadata each). */
  function events(count: number, metadataBytes = 0): Record<string, unknown>[] {
    return Array.from({ length: count }, () => ({
      type: 'view',
      productId: String(n % 7),
      sessionId: 's1',
      messageId: `m${n++}`,
      ...(metadataBytes > 0 ? { metadata: { note: 'x'.repeat(metadataBytes) } } : {}),
    }));
  }

  const post = (t: TestService, batch: Record<string, unknown>[], key = t.shop.publicKey) => t.fetch('/api/events/batch', { method: 'POST', key, body: JSON.stringify({ events: batch }) });
  const stored = (t: TestService) => t.service.engines.get(t.shop.shopId).eventCount;

  test("When the public key has stored its day's events, then a write that does not fit stores nothing and gets 429 storefront_quota until midnight UTC", async () => {
    const t = await start({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '10' });
    expect((await post(t, events(8))).status).toBe(200);

    const refused = await post(t, events(3));
    const body = await expectProblem(refused, 429, 'storefront_quota');
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(body.detail).toContain('2026-03-02T00:00:00.000Z');
    expect(stored(t)).toBe(8);

    expect((await post(t, events(2))).status).toBe(200); // fits exactly
    const single = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify(events(1)[0]) });
    await expectProblem(single, 429, 'storefront_quota');
    expect(stored(t)).toBe(10);

    now += 60_000; // a new day
    expect((await post(t, events(10))).status).toBe(200);
    expect(stored(t)).toBe(20);
  });

  test("When the merchant's server writes with the secret key, then it is never charged nor refused", async () => {
    const t = await start({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '5' });
    expect((await post(t, events(100), t.shop.secretKey)).status).toBe(200);
    expect((await post(t, events(5))).status).toBe(200);
    await expectProblem(await post(t, events(1)), 429, 'storefront_quota');
    expect((await post(t, events(100), t.shop.secretKey)).status).toBe(200);
    expect(stored(t)).toBe(205);
  });

  test('When events repeat a stored messageId, then they are not charged: the budget counts what is stored', async () => {
    const t = await start({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '4' });
    const batch = events(3);
    expect((await post(t, batch)).status).toBe(200);
    const again = await post(t, [...batch, ...events(1)]);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ accepted: 1, duplicates: 3 });
  });

  test('When events carry large metadata, then the bytes budget refuses them before the events budget would', async () => {
    const t = await start({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '100000', PAIRWISE_STOREFRONT_MB_PER_DAY: '1' });
    let accepted = 0;
    for (let i = 0; i < 20; i++) {
      const res = await post(t, events(100, 900));
      if (res.status !== 200) {
        await expectProblem(res, 429, 'storefront_quota');
        break;
      }
      accepted += 100;
    }
    // ~1 KB an event as stored: 1 MiB holds ten batches of 100 at most.
    expect(accepted).toBeGreaterThanOrEqual(800);
    expect(accepted).toBeLessThanOrEqual(1000);
    const metrics = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
    const bytes = Number(/^pairwise_storefront_bytes_today\{shop="shop-a"\} (\d+)$/m.exec(metrics)![1]);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    expect(bytes).toBeGreaterThan(accepted * 900);
  });

  test('When the budget refuses writes, then /metrics counts them and shows the day, and the dashboard shows it spent', async () => {
    const t = await start({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '3' });
    expect((await post(t, events(3))).status).toBe(200);
    expect((await post(t, events(2))).status).toBe(429);

    const metrics = await (await t.fetch('/metrics', { key: t.shop.secretKey })).text();
    expect(metrics).toMatch(/^pairwise_storefront_events_today\{shop="shop-a"\} 3$/m);
    expect(metrics).toMatch(/^pairwise_storefront_events_per_day 3$/m);
    expect(metrics).toMatch(/^pairwise_storefront_quota_refused_total\{shop="shop-a"\} 2$/m);
    expect(metrics).toMatch(/^pairwise_events_refused_total\{reason="storefront_quota"\} 2$/m);

    const signIn = await fetch(`${t.url}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: t.url, 'content-type': 'application/x-www-form-urlencoded' },
      body: `key=${t.shop.secretKey}`,
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = await (await fetch(`${t.url}/dashboard`, { headers: { cookie } })).text();
    expect(page).toContain('data-metric="storefront-today">3 of 3 events · 0 MB (no limit)');
    expect(page).toContain('spent: storefront events are refused until 00:00 UTC');
  });

  test('When a WebSocket events op does not fit, then its error frame says storefront_quota with the wait in ms', async () => {
    const t = await start({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '2' });
    const client = await StreamClient.open(t.url, t.shop.publicKey);
    try {
      expect(await client.request({ op: 'events', ref: 1, events: events(2) })).toMatchObject({ op: 'acks', accepted: 2 });
      expect(await client.request({ op: 'event', ref: 2, event: events(1)[0] })).toMatchObject({ op: 'error', ref: 2, error: { code: 'storefront_quota', retryAfterMs: 60_000 } });
    } finally {
      client.close();
    }
  });

  test('When nothing is set, then a public key may store 5,000,000 events and 1,000 MB a day', () => {
    expect(loadConfig({}).storefrontQuota).toEqual({ eventsPerDay: 5_000_000, bytesPerDay: 1000 * 1024 * 1024 });
    expect(() => loadConfig({ PAIRWISE_STOREFRONT_EVENTS_PER_DAY: '-1' })).toThrow();
  });
});
