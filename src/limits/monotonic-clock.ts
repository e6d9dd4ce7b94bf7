// The one kind of time token buckets run on: milliseconds of a monotonic clock (performance.now()).
// A branded number, so that a wall-clock reading (Date.now(), an HttpDeps clock, an event's time)
// cannot be passed where a bucket expects its own time: mixing the two once put a bucket's full-time
// decades ahead and locked an address out until a restart.

declare const monotonic: unique symbol;

/** Milliseconds on a monotonic clock; made only by a MonotonicClock (or monotonicMs, for a fake one). */
export type MonotonicMs = number & { readonly [monotonic]: true };

export type MonotonicClock = () => MonotonicMs;

/** The process's monotonic clock. */
export const monotonicNow: MonotonicClock = () => performance.now() as MonotonicMs;

/** A reading of a clock that is monotonic but not performance.now() (a test's fake clock, one that moves only when told). */
export function monotonicMs(ms: number): MonotonicMs {
  return ms as MonotonicMs;
}
