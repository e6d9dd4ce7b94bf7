// The connection to the NATS cluster that holds the log. A node that cannot reach NATS at start
// says so, naming every URL it tried, and tries again with growing waits instead of exiting (a
// supervisor restarting a node that exits at once would only make a crash loop of a NATS outage).
// Once connected, the client's own reconnect rides out a NATS server going away.
import { connect, type NatsConnection } from '@nats-io/transport-node';

/** Waits between attempts at start: 1 s, doubled each time, at most 30 s. */
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 30_000;

export interface ConnectOptions {
  /** The client name NATS shows for this node (monitoring, logs). */
  name: string;
  /** Told of each failed attempt, with the URLs and the wait before the next. */
  report: (line: string) => void;
  /** Stops retrying (shutdown): the promise rejects with the last error. */
  signal?: AbortSignal;
  /** Waits `ms`; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The wait before attempt `attempt + 1` (attempt counts from 1). */
export function retryWaitMs(attempt: number): number {
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** Math.min(attempt - 1, 16));
}

/** Connects to any of `urls`, retrying with backoff until it does (or `signal` aborts). */
export async function connectToLog(urls: readonly string[], options: ConnectOptions): Promise<NatsConnection> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect({
        servers: [...urls],
        name: options.name,
        timeout: 2_000,
        // After the first connection: reconnect for ever, every server in turn.
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const wait = retryWaitMs(attempt);
      options.report(`cannot reach NATS at ${urls.join(', ')} (attempt ${attempt}: ${(error as Error).message}); trying again in ${wait / 1000} s`);
      await sleep(wait);
      if (options.signal?.aborted) throw error;
    }
  }
}

/**
 * Runs `request` (JetStream requests made at start) until it is answered: one that times out, or
 * finds no JetStream to answer it, is tried again with the same growing waits as the connection.
 * Right after a NATS server is lost, the cluster elects new leaders for a few seconds and answers
 * nothing; a node starting then waits for them instead of exiting. Other errors are thrown.
 */
export async function whenAnswered<T>(what: string, request: () => Promise<T>, options: Pick<ConnectOptions, 'report' | 'sleep'>): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!isUnanswered(error)) throw error;
      const wait = retryWaitMs(attempt);
      options.report(`the NATS cluster did not answer ${what} (attempt ${attempt}: ${(error as Error).message}); trying again in ${wait / 1000} s`);
      await sleep(wait);
    }
  }
}

/** A request nobody answered in time: a timeout, no responders, or JetStream's "cluster not available" (10008). */
function isUnanswered(error: unknown): boolean {
  const name = (error as Error)?.name;
  const code = (error as { api_error?: { err_code?: number } }).api_error?.err_code;
  return name === 'TimeoutError' || name === 'NoRespondersError' || code === 10008;
}

/** How many servers the connected cluster has (1 for a server outside a cluster), as the server told the client. */
export function clusterSize(nc: NatsConnection): number {
  const info = nc.info;
  if (info === undefined || info.cluster === undefined) return 1;
  return Math.max(1, info.connect_urls?.length ?? 1);
}
