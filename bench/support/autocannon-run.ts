// autocannon in this process (pinned to the load CPU by the caller): one run, summarized.
import autocannon from 'autocannon';
import type { LoadResult } from './load-result.js';

export interface AutocannonRun {
  url: string;
  connections: number;
  seconds: number;
  /** Default headers of every request (a request may override them). */
  headers?: Record<string, string>;
  /** Cycled in order by each connection; absent = GET `url`. */
  requests?: autocannon.Request[];
  /** Replace `[<id>]` in each request with a fresh id (autocannon rebuilds every request then). */
  idReplacement?: boolean;
}

export async function runAutocannon(run: AutocannonRun): Promise<LoadResult> {
  const result = await autocannon({
    url: run.url,
    connections: run.connections,
    duration: run.seconds,
    pipelining: 1,
    timeout: 10,
    headers: run.headers,
    requests: run.requests,
    idReplacement: run.idReplacement ?? false,
  });
  return {
    tool: 'autocannon',
    requestsPerSec: result.requests.total / result.duration,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    durationSec: result.duration,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}
