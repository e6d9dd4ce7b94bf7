// Keeps every shop's content neighbours (behind `similar`) computed ahead of requests, in short
// slices of idle event-loop time, so that a catalog load or change is paid for in the background
// and a request rarely computes one itself. Lists computed while a catalog was still changing may
// lag its IDF drift, and differ from another process's or node's that computed them at another
// moment; once a shop's catalog has been quiet a while, the lists that are not exact are computed
// again, and every process and node then holds the same ones.
import type { ShopEngine } from '../engine/shop-engine.js';
import type { ShopEngines } from '../engine/shop-engines.js';

/** Event-loop time one slice may take, in ms. */
const SLICE_MS = 4;
/** Products computed between two looks at the clock. */
const BATCH = 8;
/** Pause once every shop is fresh, before looking again, in ms. */
const IDLE_MS = 1000;
/** How long a shop's catalog stays unchanged before its inexact content lists are computed again, in ms. */
export const QUIET_MS = 10_000;
/** A shop's lists are computed again at most this often (a catalog edited every few seconds is never quiet long), in ms. */
export const REFRESH_INTERVAL_MS = 600_000;

/** What the warmer knows of a shop's catalog changes. */
interface Watch {
  changes: number;
  since: number;
  refreshedAt: number;
}

export class ContentWarmer {
  #timer: NodeJS.Timeout | undefined;
  #immediate: NodeJS.Immediate | undefined;
  #stopped = true;

  readonly #watches = new WeakMap<ShopEngine, Watch>();

  constructor(
    readonly engines: ShopEngines,
    readonly clock: () => number = () => performance.now(),
  ) {}

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
      if (this.#refreshWhenQuiet(engine)) busy = true;
    }
    return busy;
  }

  /** Refreshes the shop's content lists if they are not exact and its catalog has been quiet; returns whether it did. */
  #refreshWhenQuiet(engine: ShopEngine): boolean {
    const content = engine.contentState();
    if (content.exact) return false;
    const now = this.clock();
    const watch = this.#watches.get(engine);
    if (watch === undefined || watch.changes !== content.changes) {
      this.#watches.set(engine, { changes: content.changes, since: now, refreshedAt: watch?.refreshedAt ?? -Infinity });
      return false;
    }
    if (now - watch.since < QUIET_MS || now - watch.refreshedAt < REFRESH_INTERVAL_MS) return false;
    watch.refreshedAt = now;
    engine.refreshContent();
    return true;
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
