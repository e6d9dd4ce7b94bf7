// The textbook token bucket, for comparison with src/limits/: a token count refilled by elapsed time
// and capped at the burst, one Map entry per key, the least recently used key dropped past `max`. A
// take of several tokens needs one there and may leave the count below zero (owed).
// Counts are kept in thousandths of a token and times in whole ms, so that with a rate dividing
// 1000 every step is exact integer arithmetic and decisions can be compared one for one.

interface Bucket {
  /** Thousandths of a token. */
  credit: number;
  at: number;
}

export class ReferenceBuckets {
  readonly entries = new Map<string, Bucket>();

  constructor(readonly max = Infinity) {}

  /** 0 when a token was there and `cost` were taken (the credit may go below zero: owed), else the ms until one is there. */
  take(key: string, perSecond: number, burst: number, now: number, cost = 1): number {
    let bucket = this.entries.get(key);
    if (bucket === undefined) bucket = { credit: burst * 1000, at: now };
    else this.entries.delete(key);
    this.entries.set(key, bucket);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    bucket.credit = Math.min(burst * 1000, bucket.credit + (now - bucket.at) * perSecond);
    bucket.at = now;
    if (bucket.credit >= 1000) {
      bucket.credit -= cost * 1000;
      return 0;
    }
    return (1000 - bucket.credit) / perSecond;
  }
}
