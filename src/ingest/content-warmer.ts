// Keeps every shop's content neighbours (behind `similar`) computed ahead of requests, in short
// slices of idle event-loop time, so that a catalog load or change is paid for in the background
// and a request rarely computes one itself.
import type { ShopEngines } from './shop-engines.js';

/** Event-loop time one slice may take, in ms. */
const SLICE_MS = 4;
/** Products computed between two looks at the clock. */
const BATCH = 8;
/** Pause once every shop is fresh, before looking again, in ms. */
const IDLE_MS = 1000;

export class ContentWarmer {
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  #stopped = true;

  constructor(readonly engines: ShopEngines) {}

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (this.#immediate !== undefined) clearImmediate(this.#immediate);
  }

  /** One slice: returns whether anything was stale. */
  slice(): boolean {
    const started = performance.now();
    let busy = false;
    for (const [, engine] of this.engines.entries()) {
      while (engine.precomputeContent(BATCH) > 0) {
        busy = true;
        if (performance.now() - started > SLICE_MS) return true;
      }
    }
    return busy;
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    const run = () => this.#schedule(this.slice() ? 0 : IDLE_MS);
    if (delayMs === 0) this.#immediate = setImmediate(run);
    else {
      this.#timer = setTimeout(run, delayMs);
      this.#timer.unref();
    }
  }
}
