// What a supervisor and its server processes say to each other over the IPC channel (structured
// clone: the supervisor forks its servers with serialization 'advanced', so NaN and typed arrays pass).
import type { MetricFamily } from '../observability/metric-family.js';

/** Server → supervisor: started and listening (the first one's banner is printed), with its resident memory. */
export interface ReadyMessage {
  type: 'ready';
  rssBytes: number;
  banner: string;
}

/** Either way: a process committed to a shop's log, which now ends at `head` (0: the shop was erased); the supervisor passes it to the other servers. */
export interface CommittedMessage {
  type: 'committed';
  shopId: string;
  head: number;
}

/** Server → supervisor: GET /metrics by `shopId`'s key reached this server; the node's families are wanted (answered with MetricsAnswerMessage and the same id). */
export interface MetricsRequestMessage {
  type: 'metrics-request';
  id: number;
  shopId: string;
}

/** Supervisor → server: report this process's families for a scrape by `shopId`'s key (answered with MetricsReportMessage and the same id). */
export interface MetricsCollectMessage {
  type: 'metrics-collect';
  id: number;
  shopId: string;
}

/** Server → supervisor: this process's families. */
export interface MetricsReportMessage {
  type: 'metrics-report';
  id: number;
  families: MetricFamily[];
}

/** Supervisor → server: the node's families, every process's put together. */
export interface MetricsAnswerMessage {
  type: 'metrics-answer';
  id: number;
  families: MetricFamily[];
}

export type ServerMessage = ReadyMessage | CommittedMessage | MetricsRequestMessage | MetricsReportMessage;
export type SupervisorMessage = CommittedMessage | MetricsCollectMessage | MetricsAnswerMessage;

const SERVER_TYPES: ReadonlySet<unknown> = new Set(['ready', 'committed', 'metrics-request', 'metrics-report']);
const SUPERVISOR_TYPES: ReadonlySet<unknown> = new Set(['committed', 'metrics-collect', 'metrics-answer']);

export function isServerMessage(value: unknown): value is ServerMessage {
  return SERVER_TYPES.has((value as { type?: unknown } | null)?.type);
}

export function isSupervisorMessage(value: unknown): value is SupervisorMessage {
  return SUPERVISOR_TYPES.has((value as { type?: unknown } | null)?.type);
}
