// The connection to the NATS cluster that holds the log. A node that cannot reach NATS at start
// says so, naming every URL it tried, and tries again with growing waits instead of exiting (a
// supervisor restarting a node that exits at once would only make a crash loop of a NATS outage);
// so does a node whose JetStream requests find the cluster still forming or electing (no
// JetStream yet, no leader, the stream not placed). Once connected, the client's own reconnect
// rides out a NATS server going away.
import { JetStreamApiError, JetStreamError } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { StartupError } from '../../errors.js';
import type { Log } from '../../observability/log.js';

/** Waits between attempts at start: 1 s, doubled each time, at most 30 s. */
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 30_000;

export interface ConnectOptions {
  /** The client name NATS shows for this node (monitoring, logs). */
  name: string;
  /** Told of each failed attempt, with the URLs and the wait before the next. */
  report: Log;
  /** Stops retrying (shutdown): the promise rejects with the last error. */
  signal?: AbortSignal;
  /** Waits `ms`; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
}

// Not unref'd: while a start waits for NATS this timer is all the process has open, and Node exits
// (with code 0, saying nothing) once nothing is.
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
      options.report(`cannot reach NATS at ${urls.join(', ')} (attempt ${attempt}: ${(error as Error).message}); trying again in ${wait / 1000} s`, { event: 'nats-unreachable', level: 'warn', attempt, retryInSeconds: wait / 1000, error: (error as Error).message });
      await sleep(wait);
      if (options.signal?.aborted) throw error;
    }
  }
}

/**
 * Runs `request` (JetStream requests made at start) until it is answered. Whatever NATS answers
 * first is tried again with the same growing waits as the connection, each attempt named: while a
 * NATS cluster forms, or after it lost a server, it answers "jetstream is not enabled" (no server
 * took the request yet), "JetStream cluster not available" (no meta leader), "no suitable peers for
 * placement" (not every server joined), or nothing in time. A StartupError (this node's settings
 * against the stream's) and an error that does not come from NATS are thrown at once.
 */
export async function whenAnswered<T>(what: string, request: () => Promise<T>, options: Pick<ConnectOptions, 'report' | 'sleep'>): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!isNotYetAnswered(error)) throw error;
      const wait = retryWaitMs(attempt);
      options.report(`the NATS cluster did not answer ${what} (attempt ${attempt}: ${(error as Error).message}); trying again in ${wait / 1000} s`, { event: 'nats-unanswered', level: 'warn', what, attempt, retryInSeconds: wait / 1000, error: (error as Error).message });
      await sleep(wait);
    }
  }
}

/** The client's errors (error.name) that a NATS cluster causes while it is not ready yet. */
const NOT_YET = new Set(['TimeoutError', 'NoResponders', 'RequestError', 'ConnectionError', 'JetStreamNotEnabled']);

/**
 * Whether `error` is NATS saying it cannot answer yet: any JetStream API error among them, as the
 * cluster's answers while it forms are many (one that persists is named in the log each time).
 */
function isNotYetAnswered(error: unknown): boolean {
  if (error instanceof StartupError || !(error instanceof Error)) return false;
  return NOT_YET.has(error.name) || error instanceof JetStreamError || error instanceof JetStreamApiError;
}

/** How many servers the connected cluster has (1 for a server outside a cluster), as the server told the client. */
export function clusterSize(nc: NatsConnection): number {
  const info = nc.info;
  if (info === undefined || info.cluster === undefined) return 1;
  return Math.max(1, info.connect_urls?.length ?? 1);
}
