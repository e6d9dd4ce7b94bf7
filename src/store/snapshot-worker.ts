// The snapshot writer's thread: receives a snapshot already split into a header and binary parts
// (the parts' buffers transferred, not copied) and stores it durably, replacing the shop's previous snapshot in one transaction. It runs at the
// lowest CPU priority: on a server pinned to one core, requests come first. After each write it
// collects its own (tiny) heap, so the parts' bytes are freed at once: an idle thread's collector
// would otherwise keep a whole copy of the models until the next snapshot arrives. (The thread is
// kept, not started per snapshot: starting one costs ~150 ms of CPU at normal priority.)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabases, snapshotPartRange, type SnapshotRecord } from './database.js';
import { closeDatabases, commitDurably } from './durable-commit.js';
import { logStart } from './log-retention.js';
import { lowerThreadPriority } from '../thread-priority.js';

export type WriterRequest = { kind: 'put'; id: number; shopId: string; header: unknown; parts: Uint8Array[] } | { kind: 'close' };
export type WriterReply = { id: number; error?: string } | { closed: true };

lowerThreadPriority();
const collectGarbage = garbageCollector();
const port = parentPort!;
const dbs = openDatabases((workerData as { path: string }).path);

port.on('message', (request: WriterRequest) => {
  if (request.kind === 'close') {
    const closed = () => port.postMessage({ closed: true } satisfies WriterReply);
    void closeDatabases(dbs).then(closed, closed);
    return;
  }
  const { id, shopId, header, parts } = request;
  commitDurably(dbs, () => {
    // Read in the transaction, after any prune committed: a snapshot must cover what the log dropped.
    const { position } = header as SnapshotRecord;
    const start = logStart(dbs, shopId);
    if (position + 1 < start) throw new Error(`a snapshot at log position ${position} is behind the log, which starts at ${start}`);
    for (const key of Array.from(dbs.snapshotParts.getKeys(snapshotPartRange(shopId)))) dbs.snapshotParts.remove(key);
    // lmdb-js stores garbage for a view of a SharedArrayBuffer (the main thread's copy arena):
    // those are copied into plain buffers here, off the main thread.
    parts.forEach((bytes, index) => dbs.snapshotParts.put([shopId, index], bytes.buffer instanceof SharedArrayBuffer ? bytes.slice() : bytes));
    dbs.snapshots.put(shopId, header as SnapshotRecord);
    dbs.snapshotPositions.put(shopId, position);
  }).then(
    () => port.postMessage({ id } satisfies WriterReply),
    (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies WriterReply),
  ).finally(() => setImmediate(collectGarbage)); // once nothing here holds the record
});

/**
 * A full collection of this thread's heap, the way Jest's leak detector gets one: --expose-gc set
 * at run time gives a new context a `gc` function (V8 flags are process-wide, but only contexts
 * created afterwards see it; the main thread's is untouched).
 */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof gc === 'function' ? (gc as () => void) : () => {}; // a runtime without it: the bytes wait for the next collection
}
