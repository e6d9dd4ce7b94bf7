import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TopK } from '../../src/engine/top-k.js';

const byId = (a: number, b: number) => a - b;

/** The reference: every candidate sorted, best first (higher score, then lower id), the first k. */
function referenceTop(candidates: readonly [number, number][], k: number): [number, number][] {
  return [...candidates].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
}

/** Distinct ids with scores from a small set, so that ties are common. */
const candidateStreams = fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: -3, max: 6 })), { selector: ([id]) => id, maxLength: 120 });

describe('TopK', () => {
  test('Given any stream of candidates, then the kept ones, sorted, are the best k of a full sort (ties by id)', () => {
    fc.assert(
      fc.property(candidateStreams, fc.integer({ min: 0, max: 20 }), (candidates, k) => {
        const top = new TopK(byId);
        top.reset(k);
        for (const [id, score] of candidates) top.offer(id, score);
        const count = top.sort();
        const kept = Array.from({ length: count }, (_, r) => [top.idAt(r), top.scoreAt(r)]);
        expect(kept).toEqual(referenceTop(candidates, k));
      }),
    );
  });

  test('Given any stream, then admits() says whether offer() keeps the candidate, so skipping what it refuses changes nothing', () => {
    fc.assert(
      fc.property(candidateStreams, fc.integer({ min: 0, max: 20 }), (candidates, k) => {
        const all = new TopK(byId);
        const filtered = new TopK(byId);
        all.reset(k);
        filtered.reset(k);
        const seen: [number, number][] = [];
        for (const [id, score] of candidates) {
          const admitted = filtered.admits(id, score);
          seen.push([id, score]);
          // Kept right after its offer exactly when it is among the best k so far.
          expect(admitted).toBe(referenceTop(seen, k).some(([kept]) => kept === id));
          all.offer(id, score);
          if (admitted) filtered.offer(id, score);
        }
        const a = all.sort();
        const f = filtered.sort();
        expect(f).toBe(a);
        for (let r = 0; r < a; r++) expect([filtered.idAt(r), filtered.scoreAt(r)]).toEqual([all.idAt(r), all.scoreAt(r)]);
      }),
    );
  });

  test('Given any stream, then a candidate scoring below the floor is never admitted, and one above it always is', () => {
    fc.assert(
      fc.property(candidateStreams, fc.integer({ min: 0, max: 20 }), (candidates, k) => {
        const top = new TopK(byId);
        top.reset(k);
        for (const [id, score] of candidates) {
          const floor = top.floor;
          if (score < floor) expect(top.admits(id, score)).toBe(false);
          if (score > floor) expect(top.admits(id, score)).toBe(true);
          top.offer(id, score);
        }
      }),
    );
  });
});
