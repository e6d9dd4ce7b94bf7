// PUT /api/shop/recency and PAIRWISE_RECENCY: 'off' turns the time-based priors off at once (here
// seen through bought-together's decayed basket pairs), as a shop change that survives a restart.
import { afterEach, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const DAY = 86_400_000;
const at = (ms: number) => new Date(ms).toISOString();

/**
 * Product 1 was bought with 2 in 10 orders 300 days ago, and with 3 in 3 orders yesterday: with the
 * pairs decayed (20-day half-life) 3 comes first, counted however old 2 does.
 */
async function arrange(t: TestService): Promise<void> {
  await putProducts(t, ['1', '2', '3'].map((id) => wireProduct(id)));
  const order = (session: string, partner: string, ms: number) => [
    { type: 'purchase', productId: '1', sessionId: session, timestamp: at(ms) },
    { type: 'purchase', productId: partner, sessionId: session, timestamp: at(ms) },
  ];
  const events = [];
  for (let i = 0; i < 10; i++) events.push(...order(`old-${i}`, '2', NOW - 300 * DAY));
  for (let i = 0; i < 3; i++) events.push(...order(`new-${i}`, '3', NOW - DAY));
  await postEvents(t, events, t.shop.secretKey);
}

const partners = async (t: TestService) => ids(await recommendations(t, 'strategy=bought-together&productId=1&limit=2'));

function putRecency(t: TestService, body: unknown, key = t.shop.secretKey) {
  return t.fetch('/api/shop/recency', { method: 'PUT', key, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

const shopSettings = async (t: TestService) => ((await (await t.fetch('/api/shop', { key: t.shop.secretKey })).json()) as { settings: { recency: string; effective: string } }).settings;

describe('recency', () => {
  const started: TestService[] = [];
  afterEach(async () => {
    for (const t of started.splice(0)) await t.cleanup();
  });

  test('When the shop turns recency off, then answers count basket pairs however old at once; auto brings the decay back; a restart keeps the setting', async () => {
    const t = await startTestService({ clock: () => NOW });
    started.push(t);
    await arrange(t);
    expect(await partners(t)).toEqual(['3', '2']);
    expect(await shopSettings(t)).toMatchObject({ recency: 'auto', effective: 'auto' });

    const res = await putRecency(t, { recency: 'off' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ recency: 'off', effective: 'off' });
    expect(await partners(t)).toEqual(['2', '3']);
    expect(await shopSettings(t)).toMatchObject({ recency: 'off', effective: 'off' });

    await t.stop();
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW });
    started.push(again);
    expect(await partners(again)).toEqual(['2', '3']);
    expect(await (await putRecency(again, { recency: 'auto' })).json()).toEqual({ recency: 'auto', effective: 'auto' });
    expect(await partners(again)).toEqual(['3', '2']);
  });

  test('When PAIRWISE_RECENCY is off, then every shop answers with recency off whatever its own setting', async () => {
    const t = await startTestService({ clock: () => NOW, env: { PAIRWISE_RECENCY: 'off' } });
    started.push(t);
    await arrange(t);
    expect(await shopSettings(t)).toMatchObject({ recency: 'auto', effective: 'off' });
    expect(await partners(t)).toEqual(['2', '3']);
  });

  test('When the setting is not auto or off, or the key is the public one, then it is refused and nothing changes', async () => {
    const t = await startTestService({ clock: () => NOW });
    started.push(t);
    await expectProblem(await putRecency(t, { recency: 'never' }), 400, 'invalid_recency', '/recency');
    await expectProblem(await putRecency(t, {}), 400, 'invalid_recency', '/recency');
    await expectProblem(await putRecency(t, '{"recency":'), 400, 'invalid_json');
    expect((await putRecency(t, { recency: 'off' }, t.shop.publicKey)).status).toBe(403);
    expect(await shopSettings(t)).toMatchObject({ recency: 'auto', effective: 'auto' });
  });
});
