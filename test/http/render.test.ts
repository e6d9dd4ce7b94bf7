// The score text of an answer: the arithmetic formatter agrees with the decimal round trip it replaces.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { score } from '../../src/app/render.js';

/** The obviously-correct reference: round to 6 significant digits through decimal text. */
const reference = (value: number) => (value === 0 ? '0' : String(Number(value.toPrecision(6))));

describe('score text', () => {
  test('When any finite double is formatted, then the text is the 6-significant-digit decimal round trip', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        expect(score(value)).toBe(reference(value));
      }),
      { numRuns: 20_000 },
    );
  });

  test('When scores are in the range answers use, then the text is the decimal round trip', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1e4, noNaN: true }), fc.integer({ min: 0, max: 12 }), (value, digits) => {
        // Values cut to few digits land on and near rounding ties (x.xxxxx5) as well as anywhere.
        const cut = Number(value.toPrecision(digits === 0 ? 17 : digits));
        expect(score(cut)).toBe(reference(cut));
        expect(score(-cut)).toBe(reference(-cut));
      }),
      { numRuns: 20_000 },
    );
  });

  test('When values sit on powers of ten and exact ties, then the text is the decimal round trip', () => {
    for (const value of [1, 2, 0.5, 10, 0.1, 120000.4, 0.0000123, 1e-5, 1e5, 999999.5, 9.999995, 0.1234565, 1.000005, 0.30000000000000004, 5e-324, Number.MAX_VALUE]) {
      expect(score(value)).toBe(reference(value));
    }
  });
});
