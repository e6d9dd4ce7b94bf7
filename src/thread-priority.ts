// Background threads (snapshot writer, EASE refit) run at the lowest CPU priority: on a server
// pinned to one core, requests come first.
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';

/** Linux: setpriority on a thread id renices that thread alone (node's setPriority takes any id). */
export function lowerThreadPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId)) setPriority(threadId, constants.priority.PRIORITY_LOW);
  } catch {
    // No /proc (not Linux): the thread keeps the normal priority.
  }
}
