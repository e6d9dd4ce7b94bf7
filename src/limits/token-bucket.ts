// Token-bucket arithmetic in its GCRA form: a bucket is one number, the time at which it would be
// full again, so an idle bucket needs no timer and a table of buckets is one Float64Array. Times are
// milliseconds on a monotonic clock (limits/monotonic-clock.ts), typed so that no other time gets in.
// A take may cost more than one token (a request carrying N events costs N): it is admitted when the
// bucket holds one token and takes them all, leaving the bucket owing what it lacked, so the rate
// over time is exact and a cost above the burst (a batch of 100 on a 50-token share) still passes,
// on a full bucket, instead of never.
import type { MonotonicMs } from './monotonic-clock.js';

/** A bucket's shape: it refills `perSecond` tokens a second and holds at most `burst`. */
export class BucketRate {
  /** Milliseconds one token takes to come back. */
  readonly intervalMs: number;
  /** burst × interval: how far a bucket's full-time may run ahead of now (an empty bucket). */
  readonly spanMs: number;
  /** Tolerance for the rounding of sums of fractional intervals (1/3 s …): never lets a whole token through. */
  readonly #slackMs: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
  ) {
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) throw new RangeError(`perSecond must be a positive number, got ${perSecond}`);
    if (!Number.isInteger(burst) || burst < 1) throw new RangeError(`burst must be a positive integer, got ${burst}`);
    this.intervalMs = 1000 / perSecond;
    this.spanMs = burst * this.intervalMs;
    this.#slackMs = this.intervalMs * 1e-6;
  }

  /**
   * Takes one token from the bucket that is full again at `fullAt` (≤ now: full): 0 when there was one,
   * else the ms until there is (always > 0). The caller stores `afterTake` only when this returns 0.
   */
  wait(fullAt: number, now: MonotonicMs): number {
    const over = (fullAt > now ? fullAt : now) + this.intervalMs - now - this.spanMs;
    return over <= this.#slackMs ? 0 : over;
  }

  /** The bucket's full-time after `cost` tokens were taken at `now` (past `now + spanMs`: the bucket owes). */
  afterTake(fullAt: number, now: MonotonicMs, cost = 1): number {
    return (fullAt > now ? fullAt : now) + cost * this.intervalMs;
  }
}

/** One bucket of its own (a WebSocket connection's); tables of them are BucketTable. */
export class TokenBucket {
  /** When the bucket is full again; ≤ now means full. A new bucket is full. */
  #fullAt = -Infinity;

  /** 0 when the bucket held a token at `now` and `cost` were taken, else the ms until one is there (nothing taken). */
  take(rate: BucketRate, now: MonotonicMs, cost = 1): number {
    const wait = rate.wait(this.#fullAt, now);
    if (wait === 0) this.#fullAt = rate.afterTake(this.#fullAt, now, cost);
    return wait;
  }
}
