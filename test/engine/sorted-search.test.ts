import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { firstAbove, firstAtLeast } from '../../src/engine/sorted-search.js';

describe('sorted search', () => {
  test('When any sorted values are searched for any value, then the binary searches agree with a linear scan', () => {
    const value = fc.integer({ min: -20, max: 20 });
    fc.assert(
      fc.property(fc.array(value, { maxLength: 40 }), value, (unsorted, probe) => {
        const values = Float64Array.from(unsorted).sort();
        const atLeast = values.findIndex((v) => v >= probe);
        const above = values.findIndex((v) => v > probe);
        expect(firstAtLeast(values, probe)).toBe(atLeast < 0 ? values.length : atLeast);
        expect(firstAbove(values, probe)).toBe(above < 0 ? values.length : above);
        expect(firstAtLeast([...values], probe)).toBe(firstAtLeast(values, probe));
      }),
      { numRuns: 500 },
    );
  });
});
