// The EASE refit's thread: receives one fit's input (shopper histories, their buffers transferred),
// solves it at the lowest CPU priority, and posts back the top-K rows (buffers transferred). One
// thread per refit, ended after it: its n×n matrix (4n² bytes, 100 MB at n = 5,000) is freed with it.
import { parentPort } from 'node:worker_threads';
import { fitEase, type EaseRows, type Histories } from '../engine/ease/solver.js';
import { lowerThreadPriority } from '../thread-priority.js';

export interface RefitRequest {
  n: number;
  histories: Histories;
  lambda: number;
  neighbors: number;
}

export type RefitReply = { rows: EaseRows; ms: number } | { error: string };

lowerThreadPriority();
const port = parentPort!;
port.once('message', ({ n, histories, lambda, neighbors }: RefitRequest) => {
  const started = performance.now();
  try {
    const rows = fitEase(n, histories, lambda, neighbors);
    if (rows === undefined) port.postMessage({ error: `G + ${lambda}·I is not positive definite` } satisfies RefitReply);
    else port.postMessage({ rows, ms: performance.now() - started } satisfies RefitReply, [rows.sizes.buffer, rows.ids.buffer, rows.weights.buffer]);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies RefitReply);
  }
});
