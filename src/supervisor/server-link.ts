// A server process's side of its supervisor's IPC channel: its commits are announced (the supervisor
// passes them to the other servers), theirs are applied here at once, and a channel that closes
// (the supervisor died) ends this server.
import type { RunningService } from '../service.js';
import { isServerMessage, type ServerMessage } from './messages.js';

/** Joins the supervisor: says ready (with `banner`, the first server's is printed) and links the commit notices. */
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
  process.on('message', (message) => {
    if (isServerMessage(message) && message.type === 'committed') void service.tail.check(message.shopId);
  });
  process.once('disconnect', orphaned);
  send({ type: 'ready', rssBytes: process.memoryUsage.rss(), banner: text });
}
