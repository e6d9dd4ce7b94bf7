// Each answer's telemetry (src/transport/telemetry.ts): the route's counts, a log line for a 5xx
// only (with what was thrown for a 500), and the access log's line for every answer when it is on.
import { describe, expect, test } from 'vitest';
import { RequestMetrics } from '../../src/observability/request-metrics.js';
import type { Exchange } from '../../src/transport/exchange.js';
import { Telemetry } from '../../src/transport/telemetry.js';
import { keptLog } from '../support/log-lines.js';

/** What the observer reads of an exchange once it is answered. */
function answered(fields: { url: string; problemCode?: string; failure?: unknown }): Exchange {
  return { request: { method: 'get', url: fields.url }, requestId: 'rq-1', problemCode: fields.problemCode, failure: fields.failure } as unknown as Exchange;
}

describe('Telemetry', () => {
  test('When a handler throws what no one expected, then its 500 is one error line with the request id and the stack', () => {
    const kept = keptLog();
    const observer = new Telemetry(new RequestMetrics(), kept.log).observer('/api/products/{id}');

    observer.answered(answered({ url: '/api/products/9', problemCode: 'internal', failure: new TypeError('boom') }), 500, 0.002);
    observer.answered(answered({ url: '/api/products/8', problemCode: 'not_found' }), 404, 0.001);

    expect(kept.lines).toEqual([
      expect.objectContaining({ event: 'http-5xx', level: 'error', requestId: 'rq-1', route: '/api/products/{id}', path: '/api/products/9', status: 500, error: expect.stringMatching(/^TypeError: boom\n\s+at /) }),
    ]);
    expect(kept.lines[0]!.msg).toBe('GET /api/products/9 answered 500 internal (request rq-1): TypeError: boom');
  });

  test('When the access log is on, then every answer is one line of it, and the counts go to the route', () => {
    const lines: Record<string, unknown>[] = [];
    const requests = new RequestMetrics();
    const observer = new Telemetry(requests, () => {}, (fields) => lines.push(fields)).observer('/healthz');

    observer.answered(answered({ url: '/healthz' }), 200, 0.00012);
    observer.answered(answered({ url: '/healthz' }), 503, 0.0004);

    expect(lines).toEqual([
      { requestId: 'rq-1', method: 'GET', route: '/healthz', path: '/healthz', status: 200, ms: 0.1 },
      { requestId: 'rq-1', method: 'GET', route: '/healthz', path: '/healthz', status: 503, ms: 0.4 },
    ]);
    const [counts] = requests.families();
    expect(counts!.values.map(({ labels, value }) => [labels.status, value])).toEqual([[200, 1], [503, 1]]);
  });
});
