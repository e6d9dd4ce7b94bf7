// The operator's log: one line per event worth their attention (a start, a stop, a server process
// replaced, a lease taken over, a snapshot, a refit, log entries dropped, NATS lost and found, a
// 5xx), as JSON through pino, each naming its event and carrying its figures as fields beside a
// sentence for people; pretty-printed by pino-pretty when stdout is a terminal. Lines are written
// synchronously: they are rare, and a crash that follows one (main.ts ends a failed process with
// SIGKILL) must not lose it. The access log (PAIRWISE_ACCESS_LOG=1), one line per request, is
// buffered instead, and flushed at exit.
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type LogLevel = 'info' | 'warn' | 'error';

/** What happened, as fields: `event` names it (server-died, snapshot, refit, …), `level` is info unless said. */
export interface LogFields {
  event: string;
  level?: LogLevel;
  [field: string]: unknown;
}

/** One line of the log: a sentence for people, and the event's fields (every line names its event: what an operator's alerts match). */
export type Log = (message: string, fields: LogFields) => void;

/** A Log that writes nothing (tests, a CLI run). */
export const SILENT: Log = () => {};

export interface ProcessLog {
  log: Log;
  /** The access log's line for one request (nothing unless PAIRWISE_ACCESS_LOG=1). */
  access: (fields: Record<string, unknown>) => void;
  readonly accessOn: boolean;
  /** Writes what the access log holds (at shutdown). */
  flush(): void;
}

/** pino-pretty on a terminal (synchronous, in this thread: no worker), JSON lines otherwise; `flushSync` writes what a buffered one holds. */
function destination(terminal: boolean, sync: boolean): DestinationStream & { flushSync?: () => void } {
  // A person at a terminal reads the sentences (which name what the fields hold); the fields are for log pipelines.
  if (terminal) return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', hideObject: true });
  return pino.destination({ dest: 1, sync, minLength: sync ? 0 : 4096 });
}

/** A Log writing through `logger`. */
export function logThrough(logger: Logger): Log {
  return (message, fields) => {
    const { level = 'info', ...rest } = fields;
    logger[level](rest, message);
  };
}

/**
 * This process's log: `server` is its number in a supervisor's node (absent for the supervisor and
 * for a server alone); `accessLog` turns the access log on.
 */
export function processLog(options: { server?: number; accessLog?: boolean; terminal?: boolean } = {}): ProcessLog {
  const terminal = options.terminal ?? process.stdout.isTTY === true;
  const base = options.server === undefined ? { pid: process.pid } : { pid: process.pid, server: options.server };
  // Levels by name ("warn", not 40): what an operator greps for.
  const settings = { base, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label: string) => ({ level: label }) } };
  const logger = pino(settings, destination(terminal, true));
  const accessOn = options.accessLog === true;
  const accessStream = accessOn ? destination(terminal, false) : undefined;
  const accessLogger = accessStream === undefined ? undefined : pino(settings, accessStream);
  return {
    log: logThrough(logger),
    access: accessLogger === undefined ? () => {} : (fields) => accessLogger.info({ event: 'request', ...fields }, `${String(fields.method)} ${String(fields.path)} ${String(fields.status)}`),
    accessOn,
    flush() {
      accessStream?.flushSync?.();
    },
  };
}
