// GET / with the demo off: a small HTML page pointing to what the service answers, not a JSON 404.
// (With the demo on it redirects to /demo: test/browser/demo-storefront.test.ts.)
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectProblem } from '../support/problem.js';
import { startTestService, type TestService } from '../support/service.js';

describe('GET / without the demo', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t.cleanup());

  test('When a browser opens the root, then it gets an HTML page linking the health check and the API description', async () => {
    const res = await t.fetch('/', { key: null, redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await res.text();
    expect(page).toContain('<a href="/healthz">');
    expect(page).toContain('<a href="/api/openapi.json">');
    expect(page).toContain('docs/api.md');
    expect((await t.fetch('/healthz', { key: null })).status).toBe(200);
  });

  test('When a browser asks for /favicon.ico, then it gets an icon, cached, not a 404', async () => {
    const res = await t.fetch('/favicon.ico', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toContain('max-age=');
    expect(await res.text()).toMatch(/^<svg /);
  });

  test('When the root is posted to, then 405; an unknown path is still a problem+json 404', async () => {
    await expectProblem(await t.fetch('/', { method: 'POST', key: null, body: '{}' }), 405, 'method_not_allowed');
    await expectProblem(await t.fetch('/demo', { key: null }), 404, 'not_found');
    await expectProblem(await t.fetch('/nothing-here', { key: null }), 404, 'not_found');
  });
});
