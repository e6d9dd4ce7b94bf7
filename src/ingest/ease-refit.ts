// Refits a shop's EASE model off the event loop: the input is copied from the engine a step per
// turn (fitInputInTurns: a few ms each), solved in a worker thread (ease-refit-worker.ts, tens of
// seconds at 5,000 products), and the finished rows are installed in one synchronous swap on the
// event loop. Events applied meanwhile change the shopper side of the very next answer (it reads
// live histories); only B waits for the next refit.
import { Worker } from 'node:worker_threads';
import { compiledModuleUrl } from '../compiled-module.js';
import { fitInputInTurns } from '../engine/ease/fit-input.js';
import type { EaseRefitConfig } from '../config.js';
import type { EaseFit } from '../engine/ease/ease-model.js';
import type { ShopEngine } from '../engine/shop-engine.js';
import { DEFAULT_EASE_BLEND } from '../engine/ease/ease-model.js';
import type { TuningReport } from '../engine/tuning/tuned-settings.js';
import type { RefitReply, RefitRequest } from './ease-refit-worker.js';

/** What one fit needs of the refit configuration (no tuningBudgetMs, or 0: fit at `lambda` with the default blend, untuned). */
export type FitConfig = Pick<EaseRefitConfig, 'maxItems' | 'neighbors' | 'lambda'> & Partial<Pick<EaseRefitConfig, 'tuningBudgetMs'>>;

/** Lets the event loop serve requests between steps of reading the input. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export const DEFAULT_FIT: Readonly<FitConfig> = Object.freeze({ maxItems: 5000, neighbors: 100, lambda: 500 });

export interface RefitResult {
  items: number;
  shoppers: number;
  /** Solve time in the worker, and the whole refit (input, thread start, solve, swap), in ms. */
  solveMs: number;
  totalMs: number;
  /** Bytes of the worker's dense matrix (4n²: single precision): the refit's peak beyond its input and output. */
  matrixBytes: number;
  /** How the shop's settings were chosen (tuned refits). */
  tuning?: TuningReport;
}

/**
 * Refits `engine` and installs the result (or hands it to `install`); undefined when the shop has too little to fit (fewer
 * than two popular products) or `signal` aborted it (the thread is ended, nothing installed).
 * Rejects when the worker fails; the installed fit is then kept.
 */
export async function refitEase(
  engine: ShopEngine,
  config: FitConfig = DEFAULT_FIT,
  signal?: AbortSignal,
  /** Takes the finished fit, in the turn it arrives: by default installs it in `engine` (one synchronous swap). */
  install: (fit: EaseFit) => void = (fit) => engine.installEase(fit),
  /** The shop's clock (epoch ms): what "recent" means to the tuner. */
  now: number = Date.now(),
): Promise<RefitResult | undefined> {
  const started = performance.now();
  const budgetMs = config.tuningBudgetMs ?? 0;
  const input = signal?.aborted ? undefined : await fitInputInTurns(engine, config.maxItems, nextTurn, undefined, budgetMs > 0 ? now : undefined);
  if (input === undefined || signal?.aborted) return undefined;
  const n = input.items.length;
  const shoppers = input.histories.starts.length - 1;
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiledModuleUrl(import.meta.url, './ease-refit-worker.js'));
    let settled = false;
    const onAbort = () => finish(undefined, undefined);
    const finish = (error: Error | undefined, result?: RefitResult) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (error !== undefined) reject(error);
      else resolve(result);
    };
    worker.once('message', (reply: RefitReply) => {
      if ('error' in reply) return finish(new Error(`EASE refit failed: ${reply.error}`));
      if (signal?.aborted) return finish(undefined, undefined);
      const tuning = reply.tuning;
      install(tuning === undefined ? { items: input.items, rows: reply.rows } : { items: input.items, rows: reply.rows, tuning });
      const result: RefitResult = { items: n, shoppers, solveMs: reply.ms, totalMs: performance.now() - started, matrixBytes: Float32Array.BYTES_PER_ELEMENT * n * n };
      finish(undefined, tuning === undefined ? result : { ...result, tuning });
    });
    worker.once('error', finish);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('exit', (code) => finish(new Error(`the EASE refit thread exited (code ${code})`)));
    const { histories, tuning } = input;
    const request: RefitRequest = { n, histories, lambda: config.lambda, neighbors: config.neighbors };
    const transfer: ArrayBuffer[] = [histories.starts.buffer, histories.items.buffer, histories.values.buffer] as ArrayBuffer[];
    if (tuning !== undefined) {
      // The shop's recency off: answers apply no time-based prior, and the tuner tries none.
      request.tuning = { input: tuning, defaults: { ...DEFAULT_EASE_BLEND, lambda: config.lambda }, budgetMs, recency: engine.timePriors ? 'auto' : 'off' };
      const { entries, items } = tuning;
      transfer.push(...([entries.strengths.buffer, entries.purchaseOrder.buffer, entries.recency.buffer, entries.once.buffer, items.recent.buffer, items.long.buffer, items.ever.buffer] as ArrayBuffer[]));
    }
    worker.postMessage(request, transfer);
  });
}
