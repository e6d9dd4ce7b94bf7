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

  /** 0 when `key`'s bucket held a token at `now` and `cost` were taken (BucketRate.afterTake), else the ms until one is there (nothing taken). */
  take(key: string, rate: BucketRate, now: MonotonicMs, cost = 1): number {
    const slot = this.#slot(key);
    const fullAt = this.#fullAt[slot]!;
    const wait = rate.wait(fullAt, now);
    if (wait === 0) this.#fullAt[slot] = rate.afterTake(fullAt, now, cost);
    return wait;
  }

  /** Takes `cost` tokens from `key`'s bucket at `now` whatever it holds (the rest of a cost admitted earlier). */
  charge(key: string, rate: BucketRate, now: MonotonicMs, cost: number): void {
    const slot = this.#slot(key);
    this.#fullAt[slot] = rate.afterTake(this.#fullAt[slot]!, now, cost);
  }

  #slot(key: string): number {
    const before = this.#slots.size;
    const slot = this.#slots.touch(key);
    if (this.#slots.size > before) {
      this.#fullAt = grownTo(this.#fullAt, slot + 1, this.maxEntries);
      this.#fullAt[slot] = -Infinity;
    }
    return slot;
  }
}
