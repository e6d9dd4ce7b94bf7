// What each answer tells the operator: its route's request metrics (observability/request-metrics.ts),
// a log line for a 5xx naming its request id (with what was thrown, for a 500), and the access log's
// line when PAIRWISE_ACCESS_LOG is on. One observer per route, bound when the server starts.
import type { Log } from '../observability/log.js';
import type { RequestMetrics } from '../observability/request-metrics.js';
import type { AnswerObserver, Exchange } from './exchange.js';

export class Telemetry {
  constructor(
    readonly requests: RequestMetrics,
    readonly log: Log,
    /** The access log's line per request; undefined: off. */
    readonly access?: (fields: Record<string, unknown>) => void,
  ) {}

  /** The observer of `route` (the route table's path, or observability's UNMATCHED_ROUTE). */
  observer(route: string): AnswerObserver {
    const recorder = this.requests.recorder(route);
    const { log, access } = this;
    return {
      answered(exchange: Exchange, status: number, seconds: number): void {
        const method = exchange.request.method;
        recorder.observe(method, status, seconds);
        if (status >= 500) serverError(log, exchange, route, status);
        access?.({ requestId: exchange.requestId, method: method.toUpperCase(), route, path: exchange.request.url, status, ms: Math.round(seconds * 1e4) / 10 });
      },
    };
  }
}

function serverError(log: Log, exchange: Exchange, route: string, status: number): void {
  const { method, url } = exchange.request;
  const failure = exchange.failure;
  const what = failure === undefined ? exchange.problemCode : failure instanceof Error ? (failure.stack ?? failure.message) : String(failure);
  // The sentence names what was thrown (its first line): a terminal's pretty log shows sentences only.
  const thrown = failure === undefined ? '' : `: ${String(what).split('\n', 1)[0]}`;
  log(`${method.toUpperCase()} ${url} answered ${status}${exchange.problemCode === undefined ? '' : ` ${exchange.problemCode}`} (request ${exchange.requestId})${thrown}`, {
    event: 'http-5xx',
    level: status === 500 ? 'error' : 'warn',
    requestId: exchange.requestId,
    method: method.toUpperCase(),
    route,
    path: url,
    status,
    ...(what === undefined ? {} : { error: what }),
  });
}
