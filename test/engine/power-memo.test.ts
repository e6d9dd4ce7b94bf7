import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PowerMemo } from '../../src/engine/power-memo.js';

describe('PowerMemo', () => {
  // The reference is the power itself: whatever was asked before, of(id, x) is exactly x ** p.
  test('every answer is exactly x ** exponent, whatever was asked before and for which id', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(0.1, 0.5, -0.25, 1, 2),
        // Few ids and few values: the same (id, x) comes back (a remembered value), the same id with
        // another x (recomputed) and the same x for another id; ids past 64 make it grow mid-stream.
        fc.array(fc.record({ id: fc.oneof(fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 300 })), x: fc.oneof(fc.constantFrom(1, 2, 3, 1000), fc.double({ min: 1, max: 1e6, noNaN: true })) }), { maxLength: 200 }),
        (exponent, calls) => {
          const memo = new PowerMemo(exponent);
          for (const { id, x } of calls) expect(Object.is(memo.of(id, x), x ** exponent)).toBe(true);
        },
      ),
    );
  });

  test('a changed x for an id is computed again, not served from the memo', () => {
    const memo = new PowerMemo(0.1);
    expect(memo.of(5, 1)).toBe(1);
    expect(memo.of(5, 1024)).toBe(1024 ** 0.1);
    expect(memo.of(5, 1)).toBe(1);
    expect(memo.of(70_000, 2)).toBe(2 ** 0.1); // far past the first allocation
    expect(memo.of(5, 1024)).toBe(1024 ** 0.1);
  });
});
