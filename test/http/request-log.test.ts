// Request ids and the operator's log: every answer carries X-Request-Id (a trusted proxy's kept,
// a client's never), a 5xx is logged with its id, and PAIRWISE_ACCESS_LOG=1 logs every request.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CommitControl } from '../support/commit-control.js';
import { killIfRunning, startChildServer } from '../support/child-server.js';
import { keptLog, logLines } from '../support/log-lines.js';
import { newShop, startTestService, tempDataDir, type TestService } from '../support/service.js';

const ID = /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/;

describe('X-Request-Id', () => {
  let t: TestService;
  let proxied: TestService;
  beforeAll(async () => {
    t = await startTestService();
    proxied = await startTestService({ env: { PAIRWISE_TRUSTED_PROXIES: '127.0.0.1' } });
  });
  afterAll(async () => {
    await t.cleanup();
    await proxied.cleanup();
  });

  test('When any request is answered (200, 204, 401, 404, 405, HEAD), then the answer carries a request id of its own', async () => {
    const answers = await Promise.all([
      t.fetch('/api/recommendations?strategy=trending'),
      t.fetch('/api/recommendations?strategy=trending', { method: 'HEAD' }),
      t.fetch('/api/events', { method: 'OPTIONS', headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } }),
      t.fetch('/api/recommendations', { key: null }),
      t.fetch('/no/such/path'),
      t.fetch('/healthz', { method: 'PUT', key: null }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 204, 401, 404, 405]);
    const ids = answers.map((res) => res.headers.get('x-request-id') ?? '');
    for (const id of ids) expect(id).toMatch(ID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("When a client sends its own X-Request-Id, then it is not taken: only a trusted proxy's is", async () => {
    const fromClient = await t.fetch('/healthz', { key: null, headers: { 'x-request-id': 'chosen-by-client' } });
    const fromProxy = await proxied.fetch('/healthz', { key: null, headers: { 'x-request-id': 'proxy-7f3a' } });
    const unfit = await proxied.fetch('/healthz', { key: null, headers: { 'x-request-id': 'has "quotes"' } });

    expect(fromClient.headers.get('x-request-id')).toMatch(ID);
    expect(fromProxy.headers.get('x-request-id')).toBe('proxy-7f3a');
    expect(unfit.headers.get('x-request-id')).toMatch(ID);
  });
});

describe('the log of a 5xx', () => {
  const control = new CommitControl();
  const kept = keptLog();
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ committer: control.committer, log: kept.log });
  });
  afterAll(() => t.cleanup());

  test('When a write is answered 503, then one log line names its request id, route and error code', async () => {
    control.refuseCommits(() => true);
    const res = await t.fetch('/api/events', { method: 'POST', body: JSON.stringify({ type: 'view', productId: '1', sessionId: 's' }) });
    control.refuseCommits();

    expect(res.status).toBe(503);
    const lines = kept.lines.filter((line) => line.event === 'http-5xx');
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', requestId: res.headers.get('x-request-id'), method: 'POST', route: '/api/events', path: '/api/events', status: 503, error: 'unavailable' })]);
  });
});

describe('PAIRWISE_ACCESS_LOG=1', () => {
  const dataDir = tempDataDir();
  const shop = newShop('logged');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  test('When requests are answered, then each is one JSON line of the access log, with its request id, route, status and time', async () => {
    const child = await startChildServer(dataDir, shop, { PAIRWISE_ACCESS_LOG: '1' });
    try {
      const read = await fetch(`${child.url}/api/recommendations?strategy=trending`, { headers: { authorization: `Bearer ${shop.publicKey}` } });
      const missing = await fetch(`${child.url}/api/products/none`, { headers: { authorization: `Bearer ${shop.secretKey}` } });
      child.process.kill('SIGTERM'); // the access log is buffered: written out at the stop
      expect((await child.exited).code).toBe(0);

      const requests = logLines(child.output()).filter((line) => line.event === 'request' && line.path !== '/healthz');
      expect(requests).toEqual([
        expect.objectContaining({ requestId: read.headers.get('x-request-id'), method: 'GET', route: '/api/recommendations', path: '/api/recommendations', status: 200, ms: expect.any(Number) }),
        expect.objectContaining({ requestId: missing.headers.get('x-request-id'), method: 'GET', route: '/api/products/{id}', path: '/api/products/none', status: 404 }),
      ]);
      expect(logLines(child.output()).map((line) => line.event)).toEqual(expect.arrayContaining(['start', 'stop', 'stopped']));
    } finally {
      await killIfRunning(child);
    }
  });
});
