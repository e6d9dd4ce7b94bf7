// The dashboard's data routes (/dashboard/data/…) through the real server: signed out they answer
// 401; signed in they answer exactly what the Bearer routes answer for the session's shop; changes
// need this origin and the session's CSRF token; the page's script and stylesheet are served here.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postEvents, putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';
import { dashboardSession } from '../support/dashboard-session.js';

let t: TestService;
let cookie: string;
let csrf: string;

async function recId(query: string): Promise<string> {
  const body = (await (await t.fetch(`/api/recommendations?${query}`)).json()) as { meta: { recId: string } };
  return body.meta.recId;
}

beforeAll(async () => {
  t = await startTestService();
  await putProducts(t, [wireProduct('1', { price: '10.00' }), wireProduct('2', { price: '4.50' }), wireProduct('3')]);
  const rec = await recId('strategy=trending&limit=3');
  const now = Date.now();
  const event = (type: string, productId: string, sessionId: string, extra: Record<string, unknown> = {}) => ({ type, productId, sessionId, widgetId: 'home', timestamp: now - 3600_000, ...extra });
  await postEvents(t, [
    event('impression', '1', 's1', { recId: rec }),
    event('impression', '2', 's1', { recId: rec }),
    event('impression', '2', 's2', { recId: rec }),
    event('click', '2', 's1', { recId: rec }),
    event('click', '2', 's2'),
    event('purchase', '2', 's1', { metadata: { orderId: 'o1', quantity: 2 } }),
  ]);
  ({ cookie, csrf } = await dashboardSession(t.url, t.shop.secretKey));
});
afterAll(() => t.cleanup());

/** A request as the dashboard page makes it: the cookie, and for a change this origin and the CSRF header. */
function data(path: string, init: { method?: string; body?: unknown; cookie?: string | null; csrf?: string | null; origin?: string | null } = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  const sessionCookie = init.cookie === undefined ? cookie : init.cookie;
  if (sessionCookie !== null) headers.cookie = sessionCookie;
  if (init.method !== undefined && init.method !== 'GET') {
    const origin = init.origin === undefined ? t.url : init.origin;
    if (origin !== null) headers.origin = origin;
    const token = init.csrf === undefined ? csrf : init.csrf;
    if (token !== null) headers['x-csrf-token'] = token;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
  }
  return fetch(t.url + path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

const EXPERIMENT = { name: 'Trending vs auto', widgetId: 'home', variants: [{ strategy: 'trending', share: 50 }, { strategy: 'auto', share: 50 }] };

describe('dashboard data routes', () => {
  test('When nobody is signed in (or the cookie is forged), then every data route answers 401 problem+json', async () => {
    for (const sessionCookie of [null, 'pairwise_dashboard=' + 'A'.repeat(43)]) {
      for (const [method, path] of [
        ['GET', '/dashboard/data/stats'],
        ['GET', '/dashboard/data/experiments'],
        ['POST', '/dashboard/data/experiments'],
        ['POST', '/dashboard/data/experiments/exp_1/start'],
      ] as const) {
        const res = await data(path, { method, cookie: sessionCookie, body: method === 'POST' ? EXPERIMENT : undefined });
        expect(res.status, `${method} ${path}`).toBe(401);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect(res.headers.get('www-authenticate'), 'no Bearer challenge: a session, not a key, is missing').toBeNull();
        expect(await res.json()).toMatchObject({ code: 'unauthorized' });
      }
    }
  });

  test('When signed in, then the stats answers are exactly those of GET /api/stats with the secret key, for every grouping', async () => {
    for (const groupBy of ['strategy', 'widget', 'variant', 'day', 'product']) {
      const res = await data(`/dashboard/data/stats?groupBy=${groupBy}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const api = await t.fetch(`/api/stats?groupBy=${groupBy}`, { key: t.shop.secretKey });
      expect(await res.json()).toEqual(await api.json());
    }
    const products = (await (await data('/dashboard/data/stats?groupBy=product')).json()) as { groups: { key: string; title: string; clicks: number; orders: number; revenue: number }[] };
    // Product 1 was only shown, never clicked: not among the products recommendations earned from.
    expect(products.groups.map((g) => [g.key, g.title, g.clicks, g.orders, g.revenue])).toEqual([['2', 'Product 2', 2, 1, 9]]);
    const bad = await data('/dashboard/data/stats?groupBy=color');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_query', errors: [{ pointer: '/groupBy' }] });
  });

  test('When a change comes without the CSRF token, with a wrong one, or from another origin, then it is refused (403) and nothing changes', async () => {
    for (const refused of [{ csrf: null }, { csrf: 'x'.repeat(43) }, { origin: 'https://evil.example' }, { origin: null }]) {
      const res = await data('/dashboard/data/experiments', { method: 'POST', body: EXPERIMENT, ...refused });
      expect(res.status, JSON.stringify(refused)).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'forbidden' });
    }
    const list = (await (await data('/dashboard/data/experiments')).json()) as { experiments: unknown[] };
    expect(list.experiments).toEqual([]);
  });

  test('When the page creates, starts and stops an experiment, then each answer is the API’s, and the list shows it with its results', async () => {
    const created = await data('/dashboard/data/experiments', { method: 'POST', body: EXPERIMENT });
    expect(created.status).toBe(201);
    const view = (await created.json()) as { id: string; status: string };
    expect(view).toMatchObject({ name: 'Trending vs auto', widgetId: 'home', status: 'draft' });

    const started = await data(`/dashboard/data/experiments/${view.id}/start`, { method: 'POST' });
    expect(started.status).toBe(200);
    expect(await started.json()).toEqual(await (await t.fetch(`/api/experiments/${view.id}`, { key: t.shop.secretKey })).json());

    const list = (await (await data('/dashboard/data/experiments')).json()) as { experiments: { id: string; status: string; results: { variants: unknown[]; comparisons: unknown[] } }[] };
    expect(list.experiments).toHaveLength(1);
    expect(list.experiments[0]).toMatchObject({ id: view.id, status: 'running' });
    expect(list.experiments[0]!.results.variants).toHaveLength(2);
    expect(list.experiments[0]!.results.comparisons).toHaveLength(1);

    const stopped = await data(`/dashboard/data/experiments/${view.id}/stop`, { method: 'POST' });
    expect(await stopped.json()).toMatchObject({ id: view.id, status: 'stopped' });
    const again = await data(`/dashboard/data/experiments/${view.id}/conclude`, { method: 'POST' });
    expect(await again.json()).toMatchObject({ status: 'concluded' });
    const refused = await data(`/dashboard/data/experiments/${view.id}/start`, { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ code: 'experiment_conflict' });
  });

  test('When the experiment body is invalid, then 400 invalid_experiment lists the fields, as the API does', async () => {
    const res = await data('/dashboard/data/experiments', { method: 'POST', body: { widgetId: '', variants: [{ strategy: 'nope', share: 50 }] } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: { pointer: string }[] };
    expect(body.code).toBe('invalid_experiment');
    expect(body.errors.map((e) => e.pointer)).toEqual(expect.arrayContaining(['/widgetId', '/variants']));
  });

  test('When the page previews, saves and deletes a rule, then a change needs the CSRF token and the preview stores nothing', async () => {
    const rule = { then: { pin: [{ productId: '1', position: 1 }] } };
    for (const refused of [{ csrf: null }, { origin: 'https://evil.example' }]) {
      expect((await data('/dashboard/data/rules/pin-one', { method: 'PUT', body: rule, ...refused })).status).toBe(403);
      expect((await data('/dashboard/data/rules/preview', { method: 'POST', body: { id: 'pin-one', rule, query: 'strategy=trending' }, ...refused })).status).toBe(403);
    }
    const preview = await data('/dashboard/data/rules/preview', { method: 'POST', body: { id: 'pin-one', rule, query: 'strategy=trending&limit=2' } });
    expect(preview.status).toBe(200);
    const { before, after } = (await preview.json()) as { before: { products: { id: string; ruleId?: string }[] }; after: { products: { id: string; ruleId?: string }[] } };
    expect(after.products[0]).toMatchObject({ id: 'gid://shopify/Product/1', ruleId: 'pin-one' });
    expect(before.products.every((p) => p.ruleId === undefined)).toBe(true);
    expect(await (await data('/dashboard/data/rules')).json()).toEqual({ rules: [] });
    const bad = await data('/dashboard/data/rules/preview', { method: 'POST', body: { id: 'x', rule: { then: { hide: 'tag:(' } }, query: 'strategy=trending' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_rule', errors: [{ pointer: '/then/hide', position: expect.any(Number), expected: expect.any(String) }] });

    expect((await data('/dashboard/data/rules/pin-one', { method: 'PUT', body: rule })).status).toBe(201);
    const listed = (await (await data('/dashboard/data/rules')).json()) as { rules: { id: string }[] };
    expect(listed.rules.map((r) => r.id)).toEqual(['pin-one']);
    expect((await data('/dashboard/data/rules/pin-one', { method: 'DELETE', csrf: null })).status).toBe(403);
    expect((await data('/dashboard/data/rules/pin-one', { method: 'DELETE' })).status).toBe(200);
    expect(await (await data('/dashboard/data/rules')).json()).toEqual({ rules: [] });
  });

  test('When the signed-in page loads, then its script and stylesheet come from this origin and the CSP allows no other script', async () => {
    const page = await fetch(t.url + '/dashboard', { headers: { cookie } });
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    const html = await page.text();
    expect(html).toContain('<script src="/dashboard/app.js" defer></script>');
    expect(html).not.toMatch(/<script>(?!<\/script>)/);
    const script = await fetch(t.url + '/dashboard/app.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(await script.text()).toContain('/dashboard/data/stats');
    const styles = await fetch(t.url + '/dashboard/app.css', { headers: { 'accept-encoding': 'gzip' } });
    expect(styles.status).toBe(200);
    expect(styles.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await styles.text()).toContain('.uplot');
  });
});
