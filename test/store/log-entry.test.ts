import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { describe, expect, test } from 'vitest';
import { entryIds, nextInRun, toLogEntry } from '../../src/store/log-entry.js';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Reference: the last 16 characters as one base-32 number (BigInt), plus one. */
function referenceNext(id: string): string | undefined {
  if (id.length < 16) return undefined;
  const tail = id.slice(-16);
  let value = 0n;
  for (const char of tail) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 32n + BigInt(digit);
  }
  value += 1n;
  if (value >= 32n ** 16n) return undefined;
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(value % 32n)]! + out;
    value /= 32n;
  }
  return id.slice(0, -16) + out;
}

/** Ids near carries and overflow: base32 tails biased towards 'Z', sometimes a character outside the alphabet. */
const idArb = fc
  .tuple(
    fc.constantFrom('evt_01KAB3ZQ8Y', 'evt_', 'x'),
    fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ALPHABET) }, { weight: 6, arbitrary: fc.constant('Z') }, { weight: 1, arbitrary: fc.constantFrom('a', 'I', '-') }), { minLength: 0, maxLength: 18 }),
  )
  .map(([prefix, tail]) => prefix + tail.join(''));

/** A list of ids made of runs (each id the next of the one before) and jumps. */
const idListArb = fc.array(fc.tuple(idArb, fc.integer({ min: 1, max: 40 })), { maxLength: 6 }).map((runs) => {
  const ids: string[] = [];
  for (const [first, length] of runs) {
    let id: string | undefined = first;
    for (let k = 0; k < length && id !== undefined; k++) {
      ids.push(id);
      id = referenceNext(id);
    }
  }
  return ids;
});

describe('log entries (eventIds as runs)', () => {
  test('When an id is incremented, then nextInRun agrees with base-32 arithmetic on its last 16 characters (carries and overflow included)', () => {
    fc.assert(fc.property(idArb, (id) => {
      expect(nextInRun(id)).toBe(referenceNext(id));
    }), { numRuns: 2000 });
  });

  test('When any list of ids is stored as an entry, then it reads back as the same list, in order', () => {
    fc.assert(fc.property(fc.oneof(idListArb, fc.array(idArb, { maxLength: 30 })), (ids) => {
      expect(entryIds(toLogEntry(ids))).toEqual(ids);
    }), { numRuns: 1000 });
  });

  test('When a batch gets its ids from monotonicFactory with one timestamp (as the pipeline does), then its entry is one run', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: 946_684_800_000, max: 2_000_000_000_000 }), (size, now) => {
        const next = monotonicFactory();
        const ids = Array.from({ length: size }, () => 'evt_' + next(now));
        expect(toLogEntry(ids)).toEqual([ids[0], size]);
        expect(entryIds(toLogEntry(ids))).toEqual(ids);
      }),
    );
  });
});
