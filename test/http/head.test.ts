// HEAD (RFC 9110 §9.3.2): every GET route of the route table answers it with the status and headers
// its GET gets, Content-Length included, and no body, so the next answer on the connection is read
// where it starts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Route } from '../../src/http/route-declaration.js';
import { ROUTES } from '../../src/http/route-table.js';
import { header, rawRequest, type RawResponse } from '../support/raw-http.js';
import { putProducts, startTestService, wireProduct, type TestService } from '../support/service.js';

/** A path that reaches `entry`'s handler: each `{param}` filled with something it may look up. */
function concretePath(entry: Route): string {
  const values: Record<string, string> = { id: entry.path.startsWith('/api/experiments') ? 'exp_1' : '1', file: '1.svg', handle: 'nowhere', rest: 'no/such/page' };
  return entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => values[name] ?? 'x');
}

/** GET /metrics counts the requests before it (the HEAD among them): its length is its own each time. */
const COUNTING = new Set(['/metrics']);

/** Headers as `name: value` lines, Date and the request's own id left out (a HEAD and a GET may straddle a second), and a counting route's length. */
function comparable(response: RawResponse, path: string): string[] {
  return response.headers.filter(([name]) => name !== 'date' && name !== 'x-request-id' && !(name === 'content-length' && COUNTING.has(path))).map(([name, value]) => `${name}: ${value}`).sort();
}

describe('HEAD', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService({ env: { PAIRWISE_DEMO: '1' } });
    await putProducts(t, [wireProduct('1')]);
  }, 60_000);
  afterAll(() => t.cleanup());

  const getRoutes = ROUTES.filter((entry) => entry.method === 'get' && entry.handler !== undefined);

  test.each(getRoutes.map((entry) => [entry.path, entry] as const))(
    'When HEAD %s is followed by GET on the same connection, then HEAD gets the GET’s status and headers and no body',
    async (_path, entry) => {
      const key = entry.access === 'secret' ? t.shop.secretKey : entry.access === 'public' ? t.shop.publicKey : undefined;
      const head = `${concretePath(entry)} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n${key === undefined ? '' : `Authorization: Bearer ${key}\r\n`}\r\n`;

      // GET /api/recommendations numbers each answer (recId): HEAD and GET get consecutive serials of one length.
      const outcome = await rawRequest(t.service.port, `HEAD ${head}GET ${head}`, { waitMs: 5_000, heads: [true, false] });

      expect(outcome.responses, outcome.text).toHaveLength(2);
      const [headAnswer, getAnswer] = outcome.responses as [RawResponse, RawResponse];
      expect(headAnswer.status).toBe(getAnswer.status);
      expect(comparable(headAnswer, entry.path)).toEqual(comparable(getAnswer, entry.path));
      if (!COUNTING.has(entry.path)) expect(Number(header(headAnswer, 'content-length'))).toBe(getAnswer.body.length);
      expect(outcome.extra.length).toBe(0);
    },
  );

  test('When a path answers GET, then its 405 for another method allows HEAD too', async () => {
    const res = await t.fetch('/healthz', { method: 'PUT', key: null });

    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
