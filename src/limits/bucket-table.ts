// Token buckets by string key (client addresses, API keys) with a hard cap on entries: the least
// recently used key is dropped when a new one needs room. Dropping a bucket forgets at most a
// partly emptied state (it comes back full), so the cap bounds memory without ever being stricter.
// A take is one Map lookup, two link updates and one Float64Array read/write: no allocation for a
// key already held.
import { LruSlots } from '../engine/lru-slots.js';
import { grownTo } from '../engine/typed-arrays.js';
import type { MonotonicMs } from './monotonic-clock.js';
import type { BucketRate } from './token-bucket.js';

export class BucketTable {
  readonly #slots: LruSlots;
  /** Full-time of each slot's bucket (see BucketRate.wait); a new slot's is set before first use. */
  #fullAt = new Float64Array(0);

  constructor(readonly maxEntries: number) {
    this.#slots = new LruSlots(maxEntries);
    this.#slots.onReuse((slot) => {
      this.#fullAt[slot] = -Infinity;
    });
  }

  get size(): number {
    return this.#slots.size;
  }

  /** 0 when a token was taken from `key`'s bucket at `now`, else the ms until one is there (nothing taken). */
  take(key: string, rate: BucketRate, now: MonotonicMs): number {
    const before = this.#slots.size;
    const slot = this.#slots.touch(key);
    if (this.#slots.size > before) {
      this.#fullAt = grownTo(this.#fullAt, slot + 1, this.maxEntries);
      this.#fullAt[slot] = -Infinity;
    }
    const fullAt = this.#fullAt[slot]!;
    const wait = rate.wait(fullAt, now);
    if (wait === 0) this.#fullAt[slot] = rate.afterTake(fullAt, now);
    return wait;
  }
}
