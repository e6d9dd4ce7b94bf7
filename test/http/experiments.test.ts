// Experiments through the real server: validation, the lifecycle (draft → running → stopped →
// concluded), sticky assignment named in meta and in the recId, results per variant, and the same
// assignments after a restart.
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

interface Answer {
  meta: { strategy: string; experiment?: string; variant?: string; recId: string };
}

async function admin(t: TestService, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await t.fetch(path, { method, key: t.shop.secretKey, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function ask(t: TestService, query: string): Promise<Answer> {
  const res = await t.fetch(`/api/recommendations?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const SESSIONS = Array.from({ length: 200 }, (_, i) => `s${i}`);

async function variants(t: TestService, widgetId: string): Promise<Map<string, string | undefined>> {
  const seen = new Map<string, string | undefined>();
  for (const s of SESSIONS) seen.set(s, (await ask(t, `strategy=trending&widgetId=${widgetId}&sessionId=${s}`)).meta.variant);
  return seen;
}

const AB = { widgetId: 'home', name: 'Trending vs recently viewed', variants: [{ strategy: 'trending', share: 1 }, { strategy: 'recently-viewed', share: 1 }] };

describe('experiments', () => {
  const started: TestService[] = [];
  let t: TestService;
  beforeEach(async () => {
    t = await startTestService({ clock: () => NOW });
    started.push(t);
    await putProducts(t, ['1', '2', '3', '4'].map((id) => wireProduct(id)));
  });
  afterEach(async () => {
    for (const s of started.splice(0)) await s.cleanup();
  });

  test('When an experiment body is invalid, then it is a 400 invalid_experiment naming each field; a public key is refused', async () => {
    for (const [body, pointer] of [
      [{ widgetId: 'home', variants: [{ strategy: 'trending', share: 50 }] }, '/variants'],
      [{ widgetId: 'home', variants: [{ strategy: 'trending', share: 50 }, { strategy: 'bogus', share: 50 }] }, '/variants/1/strategy'],
      [{ widgetId: 'home', variants: [{ strategy: 'trending', share: 50 }, { strategy: 'similar', share: 150 }] }, '/variants/1/share'],
      [{ widgetId: 'home', variants: [{ strategy: 'trending', share: 0 }, { strategy: 'similar', share: 0 }] }, '/variants'],
      [{ widgetId: '', variants: [{ strategy: 'trending', share: 1 }, { strategy: 'similar', share: 1 }] }, '/widgetId'],
    ] as const) {
      const res = await admin(t, 'POST', '/api/experiments', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_experiment', errors: expect.arrayContaining([expect.objectContaining({ pointer })]) });
    }
    expect((await t.fetch('/api/experiments')).status).toBe(403);
    expect((await admin(t, 'GET', '/api/experiments/exp_9')).status).toBe(404);
  });

  test('When an experiment runs, then each shopper gets one variant for good, named in meta and recId; stopped, the placement answers as before; concluded, its results stay', async () => {
    const created = await admin(t, 'POST', '/api/experiments', AB);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'exp_1', status: 'draft', widgetId: 'home', variants: [{ variant: 'A', strategy: 'trending', share: 50 }, { variant: 'B', strategy: 'recently-viewed', share: 50 }] });
    expect((await ask(t, 'strategy=trending&widgetId=home&sessionId=s1')).meta.experiment).toBeUndefined();

    expect((await admin(t, 'POST', '/api/experiments/exp_1/start')).body).toMatchObject({ status: 'running' });
    const first = await variants(t, 'home');
    expect(await variants(t, 'home')).toEqual(first);
    const bCount = [...first.values()].filter((v) => v === 'B').length;
    expect(bCount).toBeGreaterThan(60);
    expect(bCount).toBeLessThan(140);
    const a = await ask(t, `strategy=trending&widgetId=home&sessionId=${[...first].find(([, v]) => v === 'A')![0]}`);
    const b = await ask(t, `strategy=trending&widgetId=home&sessionId=${[...first].find(([, v]) => v === 'B')![0]}`);
    expect(a.meta).toMatchObject({ strategy: 'trending', experiment: 'exp_1', variant: 'A', recId: expect.stringMatching(/^rec_t_1_1_/) });
    expect(b.meta).toMatchObject({ strategy: 'recently-viewed', experiment: 'exp_1', variant: 'B', recId: expect.stringMatching(/^rec_r_1_2_/) });
    // Another placement, and a request without a shopper, are not in it.
    expect((await ask(t, 'strategy=trending&widgetId=pdp&sessionId=s1')).meta.experiment).toBeUndefined();
    expect((await ask(t, 'strategy=trending&widgetId=home')).meta.experiment).toBeUndefined();

    // A second experiment on the same placement cannot run beside it.
    await admin(t, 'POST', '/api/experiments', AB);
    expect((await admin(t, 'POST', '/api/experiments/exp_2/start')).body).toMatchObject({ code: 'experiment_conflict' });

    // A shows 2 products and gets 1 click; B shows 2 and gets none.
    await postEvents(t, [
      { type: 'impression', productId: '1', sessionId: 'x', widgetId: 'home', recId: a.meta.recId },
      { type: 'impression', productId: '2', sessionId: 'x', widgetId: 'home', recId: a.meta.recId },
      { type: 'click', productId: '1', sessionId: 'x', widgetId: 'home', recId: a.meta.recId },
      { type: 'impression', productId: '1', sessionId: 'y', widgetId: 'home', recId: b.meta.recId },
      { type: 'impression', productId: '3', sessionId: 'y', widgetId: 'home', recId: b.meta.recId },
    ]);
    const results = (await admin(t, 'GET', '/api/experiments/exp_1')).body.results as { variants: { variant: string; impressions: number; clicks: number }[]; comparisons: { verdict: string }[] };
    expect(results.variants.map((v) => [v.variant, v.impressions, v.clicks])).toEqual([['A', 2, 1], ['B', 2, 0]]);
    expect(results.comparisons).toEqual([expect.objectContaining({ variant: 'B', against: 'A', metric: 'ctr', difference: -0.5, verdict: 'no difference yet' })]);
    const byVariant = (await admin(t, 'GET', '/api/stats?from=2025-06-01&to=2025-06-01&groupBy=variant')).body;
    expect((byVariant.groups as { key: string }[]).map((g) => g.key)).toEqual(['exp_1/A', 'exp_1/B']);

    expect((await admin(t, 'POST', '/api/experiments/exp_1/stop')).body).toMatchObject({ status: 'stopped' });
    expect((await ask(t, `strategy=trending&widgetId=home&sessionId=${[...first].find(([, v]) => v === 'B')![0]}`)).meta).toMatchObject({ strategy: 'trending', recId: expect.stringMatching(/^rec_t_0_0_/) });
    expect((await admin(t, 'POST', '/api/experiments/exp_1/conclude')).body).toMatchObject({ status: 'concluded', results: { variants: [{ impressions: 2 }, { impressions: 2 }] } });
    expect((await admin(t, 'POST', '/api/experiments/exp_1/start')).body).toMatchObject({ code: 'experiment_conflict' });
    expect(((await admin(t, 'GET', '/api/experiments')).body.experiments as { id: string; status: string }[]).map((e) => [e.id, e.status])).toEqual([
      ['exp_1', 'concluded'],
      ['exp_2', 'draft'],
    ]);
  });

  test('When the service restarts with an experiment running, then every shopper keeps the variant it had', async () => {
    await admin(t, 'POST', '/api/experiments', AB);
    await admin(t, 'POST', '/api/experiments/exp_1/start');
    const before = await variants(t, 'home');
    await t.stop();
    const again = await startTestService({ dataDir: t.dataDir, shop: t.shop, clock: () => NOW });
    started.push(again);
    expect(await variants(again, 'home')).toEqual(before);
  });
});
