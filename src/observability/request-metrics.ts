// What the HTTP routes answered: requests by route, method and status, and their latency by route
// and method, as counters and a histogram of the node's /metrics. Recording is on every request's
// path, so each route holds plain numbers bound to it when the server starts (its recorder), and
// the families are built only when /metrics is read: a request adds to a count in a Map and a
// bucket of a typed array, ~10 ns, where prom-client's labelled children hash their labels on every
// call (~600 ns for a counter and a histogram, measured on the 2-core box).
import { family, type MetricFamily, type MetricSample } from './metric-family.js';

/** Upper bounds of the latency buckets, in seconds: answers from memory take well under a millisecond, durable writes a few. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Methods counted by name; any other a client sends counts as 'other' (a label value per made-up method would grow without bound). */
const METHODS: ReadonlySet<string> = new Set(['get', 'head', 'post', 'put', 'delete', 'options', 'patch']);

/** The label of requests that matched no route. */
export const UNMATCHED_ROUTE = 'unmatched';

class MethodCell {
  /** Answers by status. */
  readonly statuses = new Map<number, number>();
  /** Requests per latency bucket (not cumulative); past the last bound only `count` has them. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length);
  sum = 0;
  count = 0;

  observe(status: number, seconds: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.count++;
    this.sum += seconds;
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        this.buckets[i]!++;
        return;
      }
    }
  }
}

/** One route's counts, by the method each request came with. */
export class RouteRecorder {
  readonly #cells = new Map<string, MethodCell>();

  constructor(readonly route: string) {}

  /** `method` as uWS gives it (lower case); `status` 0 when the client went away unanswered. */
  observe(method: string, status: number, seconds: number): void {
    let cell = this.#cells.get(method);
    if (cell === undefined) {
      const label = METHODS.has(method) ? method : 'other';
      cell = this.#cells.get(label) ?? new MethodCell();
      this.#cells.set(label, cell);
    }
    cell.observe(status, seconds);
  }

  /** [method label, its cell] for each method seen (a made-up method is counted under 'other', never kept by its name). */
  cells(): [string, MethodCell][] {
    return [...this.#cells];
  }
}

export class RequestMetrics {
  readonly #routes = new Map<string, RouteRecorder>();

  /** The recorder of `route` (the route table's path, as '/api/products/{id}'): bind it once, at start. */
  recorder(route: string): RouteRecorder {
    let recorder = this.#routes.get(route);
    if (recorder === undefined) this.#routes.set(route, (recorder = new RouteRecorder(route)));
    return recorder;
  }

  /** Records one answered request (a lookup of its route's recorder first: the hot path holds the recorder instead). */
  observe(route: string, method: string, status: number, seconds: number): void {
    this.recorder(route).observe(method, status, seconds);
  }

  families(): MetricFamily[] {
    const requests: MetricSample[] = [];
    const latency: MetricSample[] = [];
    for (const recorder of this.#routes.values()) {
      for (const [method, cell] of recorder.cells()) {
        const labels = { route: recorder.route, method: method.toUpperCase() };
        for (const [status, count] of cell.statuses) requests.push({ labels: { ...labels, status }, value: count });
        let cumulative = 0;
        for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
          cumulative += cell.buckets[i]!;
          latency.push({ metricName: 'pairwise_http_request_duration_seconds_bucket', labels: { ...labels, le: LATENCY_BUCKETS[i]! }, value: cumulative });
        }
        latency.push({ metricName: 'pairwise_http_request_duration_seconds_bucket', labels: { ...labels, le: '+Inf' }, value: cell.count });
        latency.push({ metricName: 'pairwise_http_request_duration_seconds_sum', labels, value: cell.sum });
        latency.push({ metricName: 'pairwise_http_request_duration_seconds_count', labels, value: cell.count });
      }
    }
    return [
      { ...family('counter', 'pairwise_http_requests_total', 'HTTP requests answered, by route (as the route table writes it), method and status (0: the client went away unanswered).', []), values: requests },
      { ...family('histogram', 'pairwise_http_request_duration_seconds', 'Time from a request\'s arrival to its answer being written, by route and method.', []), values: latency },
    ];
  }
}
