// The EASE refit's thread: receives one fit's input (shopper histories, their buffers transferred),
// tunes the shop's settings on it when asked (engine/tuning/tune.ts: a validation split of the same
// histories, a small grid within a time budget), solves the fit with the chosen λ at the lowest CPU
// priority, and posts back the top-K rows (buffers transferred) with the tuning's report. One
// thread per refit, ended after it: its n×n matrix (4n² bytes, 100 MB at n = 5,000; the tuning
// holds one such matrix at a time too) is freed with it.
import { parentPort } from 'node:worker_threads';
import { fitEase, type EaseRows, type Histories } from '../engine/ease/solver.js';
import type { TunedSettings, TuningReport } from '../engine/tuning/tuned-settings.js';
import { tune, tuneOptions, type Recency } from '../engine/tuning/tune.js';
import type { TuningInput } from '../engine/tuning/validation-split.js';
import { lowerThreadPriority } from '../thread-priority.js';

export interface RefitRequest {
  n: number;
  histories: Histories;
  lambda: number;
  neighbors: number;
  /** Tune first (the defaults, and at most this many ms of validation); absent: fit at `lambda`. */
  tuning?: { input: TuningInput; defaults: TunedSettings; budgetMs: number; recency?: Recency };
}

export type RefitReply = { rows: EaseRows; ms: number; tuning?: TuningReport } | { error: string };

lowerThreadPriority();
const port = parentPort!;
port.once('message', ({ n, histories, lambda, neighbors, tuning }: RefitRequest) => {
  const started = performance.now();
  try {
    // One n×n matrix for the tuning's fits and the fit itself.
    const matrix = new Float32Array(n * n);
    const report = tuning === undefined ? undefined : tune(n, histories, tuning.input, tuneOptions(tuning.defaults, neighbors, tuning.budgetMs, tuning.recency), () => performance.now(), matrix);
    const chosen = report?.settings.lambda ?? lambda;
    const rows = fitEase(n, histories, chosen, neighbors, true, matrix);
    if (rows === undefined) port.postMessage({ error: `G + ${chosen}·I is not positive definite` } satisfies RefitReply);
    else port.postMessage({ rows, ms: performance.now() - started, ...(report === undefined ? {} : { tuning: report }) } satisfies RefitReply, [rows.sizes.buffer, rows.ids.buffer, rows.weights.buffer]);
  } catch (error) {
    port.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies RefitReply);
  }
});
