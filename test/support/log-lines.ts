// The operator's log as a test reads it: the JSON lines of a process's output (the banner's lines,
// written for people, are left out).
export type LogLine = Record<string, unknown> & { msg: string; event?: string };

export function logLines(output: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // a line cut short (the process was killed mid-write)
    }
  }
  return lines;
}

/** A Log (src/observability/log.ts) that keeps what it is told, for a service started in the test's process. */
export function keptLog(): { lines: LogLine[]; log: (message: string, fields?: Record<string, unknown>) => void } {
  const lines: LogLine[] = [];
  return { lines, log: (msg, fields) => lines.push({ ...fields, msg }) };
}
