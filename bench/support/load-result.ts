// One measured run of a load generator against one path, in a tool-neutral shape.

export type Tool = 'autocannon' | 'wrk' | 'ws';

/** The tools a hello-world baseline is measured with (a WebSocket row is compared with autocannon's). */
export type BaselineTool = Exclude<Tool, 'ws'>;

export interface LoadResult {
  tool: Tool;
  /** Completed requests divided by the measured duration. */
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  durationSec: number;
  /** Responses with a status outside 2xx (wrk: outside 2xx/3xx). */
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
}
