// A server process's side of its supervisor's IPC channel: its commits are announced (the supervisor
// passes them to the other servers), theirs are applied here at once, GET /metrics gathers every
// server's report through the supervisor (this one reports when asked), and a channel that closes
// (the supervisor died) ends this server.
import type { MetricFamily } from '../observability/metric-family.js';
import type { RunningService } from '../service.js';
import { isSupervisorMessage, type ServerMessage } from './messages.js';

/** How long a scrape waits for the node's metrics before it answers with this process's alone (the supervisor answers within its own 2 s). */
const NODE_METRICS_WAIT_MS = 5_000;

/** Joins the supervisor: says ready (with `banner`, the first server's is printed) and links the commit notices and the metrics. */
export function joinSupervisor(service: RunningService, text: string, orphaned: () => void): void {
  const send = (message: ServerMessage) => {
    if (process.connected) process.send!(message);
  };
  // One notice per shop per turn of the event loop, with the newest head: a burst of commits is one
  // message (a head of 0: the shop was erased, which the other servers' check notices).
  const heads = new Map<string, number>();
  service.shopLog.onCommitted((shopId, head) => {
    if (heads.size === 0) setImmediate(() => {
      for (const [id, h] of heads) send({ type: 'committed', shopId: id, head: h });
      heads.clear();
    });
    heads.set(shopId, Math.max(head, heads.get(shopId) ?? 0));
  });
  const answers = new Map<number, (families: MetricFamily[]) => void>();
  let nextId = 0;
  service.metrics.gatherWith((shopId) => {
    const id = nextId++;
    return new Promise<MetricFamily[]>((resolve) => {
      const timer = setTimeout(() => {
        answers.delete(id);
        resolve(service.metrics.report(shopId));
      }, NODE_METRICS_WAIT_MS);
      answers.set(id, (families) => {
        clearTimeout(timer);
        answers.delete(id);
        resolve(families);
      });
      send({ type: 'metrics-request', id, shopId });
    });
  });
  process.on('message', (message) => {
    if (!isSupervisorMessage(message)) return;
    if (message.type === 'committed') void service.tail.check(message.shopId);
    else if (message.type === 'metrics-collect') void service.metrics.report(message.shopId).then((families) => send({ type: 'metrics-report', id: message.id, families }));
    else answers.get(message.id)?.(message.families);
  });
  process.once('disconnect', orphaned);
  send({ type: 'ready', rssBytes: process.memoryUsage.rss(), banner: text });
}
