import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BucketTable } from '../../src/limits/bucket-table.js';
import { BucketRate, TokenBucket } from '../../src/limits/token-bucket.js';
import { ReferenceBuckets } from '../reference/token-buckets.js';

/** Rates whose token interval is a whole number of ms: the reference's integer arithmetic is then exact. */
const exactRate = fc.constantFrom(1, 2, 4, 5, 8, 10, 20, 25, 40, 50, 100, 125, 200, 250, 500, 1000);
/** Gaps between requests in ms: mostly bursts (0), some refills, some long pauses. */
const gap = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3000 }));

describe('TokenBucket', () => {
  test('When requests arrive at random times, then each decision and each wait equal the textbook bucket', () => {
    fc.assert(
      fc.property(exactRate, fc.integer({ min: 1, max: 20 }), fc.array(gap, { maxLength: 300 }), (perSecond, burst, gaps) => {
        const rate = new BucketRate(perSecond, burst);
        const bucket = new TokenBucket();
        const reference = new ReferenceBuckets();
        let now = 1_000;
        for (const dt of gaps) {
          now += dt;
          expect(bucket.take(rate, now)).toBe(reference.take('k', perSecond, burst, now));
        }
      }),
    );
  });

  test('When takes cost several tokens (batches of events), then each decision and wait equal the textbook bucket that lets the count owe', () => {
    fc.assert(
      fc.property(exactRate, fc.integer({ min: 1, max: 20 }), fc.array(fc.record({ dt: gap, cost: fc.integer({ min: 1, max: 100 }) }), { maxLength: 300 }), (perSecond, burst, takes) => {
        const rate = new BucketRate(perSecond, burst);
        const bucket = new TokenBucket();
        const table = new BucketTable(4);
        const reference = new ReferenceBuckets();
        let now = 1_000;
        for (const { dt, cost } of takes) {
          now += dt;
          const expected = reference.take('k', perSecond, burst, now, cost);
          expect(bucket.take(rate, now, cost)).toBe(expected);
          expect(table.take('k', rate, now, cost)).toBe(expected);
        }
      }),
    );
  });

  test('When any costs are taken, then the tokens taken over a stretch never exceed burst + rate × time, plus the last take', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 10_000, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.record({ dt: fc.double({ min: 0, max: 100, noNaN: true }), cost: fc.integer({ min: 1, max: 100 }) }), { minLength: 1, maxLength: 300 }),
        (perSecond, burst, takes) => {
          const rate = new BucketRate(perSecond, burst);
          const bucket = new TokenBucket();
          const start = 5_000;
          let now = start;
          let taken = 0;
          let last = 0;
          for (const { dt, cost } of takes) {
            now += dt;
            if (bucket.take(rate, now, cost) === 0) {
              taken += cost;
              last = cost;
            }
          }
          // What is owed is paid back before the next take: only the last may still be owed.
          expect(taken - last).toBeLessThanOrEqual(burst + Math.floor(((now - start) * perSecond) / 1000 + 1e-6));
        },
      ),
    );
  });

  test('When the rate is not a divisor of 1000 (1/3 s tokens), then a burst still gets all its tokens and no more', () => {
    const rate = new BucketRate(3, 3);
    const bucket = new TokenBucket();
    const now = 123_456.789;
    expect([0, 1, 2, 3].map(() => bucket.take(rate, now) === 0)).toEqual([true, true, true, false]);
    expect(bucket.take(rate, now + 1000 / 3)).toBe(0);
    expect(bucket.take(rate, now + 1000 / 3)).toBeCloseTo(1000 / 3, 6);
    // Three intervals later the three tokens are back, however the sums round.
    let taken = 0;
    while (bucket.take(rate, now + 4000 / 3) === 0) taken++;
    expect(taken).toBe(3);
  });

  test('When any rate is used, then the tokens taken over a stretch never exceed burst + rate × time', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 100_000, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 300 }),
        (perSecond, burst, gaps) => {
          const rate = new BucketRate(perSecond, burst);
          const bucket = new TokenBucket();
          const start = 5_000;
          let now = start;
          let taken = 0;
          for (const dt of gaps) {
            now += dt;
            const wait = bucket.take(rate, now);
            if (wait === 0) taken++;
            else expect(wait).toBeGreaterThan(0);
          }
          expect(taken).toBeLessThanOrEqual(burst + Math.floor(((now - start) * perSecond) / 1000 + 1e-6));
        },
      ),
    );
  });

  test('When a client waits the ms it was told, then its next request is taken', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100_000, noNaN: true }), fc.integer({ min: 1, max: 50 }), (perSecond, burst) => {
        const rate = new BucketRate(perSecond, burst);
        const bucket = new TokenBucket();
        let now = 10;
        let wait = 0;
        while ((wait = bucket.take(rate, now)) === 0);
        now += wait;
        expect(bucket.take(rate, now)).toBe(0);
      }),
    );
  });

  test('When a rate is not positive or a burst not a positive integer, then it is refused', () => {
    expect(() => new BucketRate(0, 1)).toThrow(RangeError);
    expect(() => new BucketRate(1, 0)).toThrow(RangeError);
    expect(() => new BucketRate(1, 1.5)).toThrow(RangeError);
  });
});

describe('BucketTable', () => {
  const requests = fc.array(fc.record({ key: fc.integer({ min: 0, max: 12 }), dt: gap }), { maxLength: 400 });

  test('When fewer keys than the cap are seen, then every decision equals one textbook bucket per key', () => {
    fc.assert(
      fc.property(exactRate, exactRate, fc.integer({ min: 1, max: 10 }), requests, (even, odd, burst, stream) => {
        // Two rates in one table, as public and secret keys share the key table.
        const rates = [new BucketRate(even, burst), new BucketRate(odd, burst + 3)];
        const table = new BucketTable(13);
        const reference = new ReferenceBuckets();
        let now = 0;
        for (const { key, dt } of stream) {
          now += dt;
          const rate = rates[key % 2]!;
          expect(table.take(`k${key}`, rate, now)).toBe(reference.take(`k${key}`, rate.perSecond, rate.burst, now));
        }
      }),
    );
  });

  test('When more keys than the cap are seen, then it drops the least recently used like a Map LRU and never holds more', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), exactRate, fc.integer({ min: 1, max: 5 }), requests, (max, perSecond, burst, stream) => {
        const rate = new BucketRate(perSecond, burst);
        const table = new BucketTable(max);
        const reference = new ReferenceBuckets(max);
        let now = 0;
        for (const { key, dt } of stream) {
          now += dt;
          expect(table.take(`k${key}`, rate, now)).toBe(reference.take(`k${key}`, perSecond, burst, now));
          expect(table.size).toBe(reference.entries.size);
          expect(table.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });

  test('When a million distinct keys arrive, then the table holds only its cap and a held key is still limited', () => {
    const rate = new BucketRate(1, 2);
    const table = new BucketTable(1000);
    for (let i = 0; i < 1_000_000; i++) table.take(`203.0.${i >> 8}.${i & 255}`, rate, 0);
    expect(table.size).toBe(1000);
    expect([table.take('held', rate, 1), table.take('held', rate, 1), table.take('held', rate, 1)]).toEqual([0, 0, 1000]);
  });
});
