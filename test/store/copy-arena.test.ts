import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CopyArena, HEADROOM } from '../../src/store/copy-arena.js';

describe('CopyArena', () => {
  test('When views are lent, then each has its size, starts 8-byte aligned, and none overlaps another', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(5000), { maxLength: 12 }), { minLength: 1, maxLength: 5 }), (rounds) => {
        const arena = new CopyArena();
        for (const sizes of rounds) {
          const lease = arena.lend(sizes)!;
          expect(lease.views.map((view) => view.byteLength)).toEqual(sizes);
          // A distinct value in every view, then every view still holds only its own.
          lease.views.forEach((view, index) => view.fill(index + 1));
          lease.views.forEach((view, index) => {
            expect(view.byteOffset % 8).toBe(0);
            expect(view.every((byte) => byte === index + 1)).toBe(true);
          });
          lease.release();
        }
      }),
    );
  });

  test('When a lease is out, then the next lend gets nothing until it is released (once is enough; twice is harmless)', () => {
    const arena = new CopyArena();
    const first = arena.lend([100])!;
    expect(arena.lend([100])).toBeUndefined();
    first.release();
    const second = arena.lend([100])!;
    first.release(); // a stale release must not free the second lease
    expect(arena.lend([10])).toBeUndefined();
    second.release();
    expect(arena.lend([10])).toBeDefined();
  });

  test('When the parts fit, then the same memory is lent again; when they outgrow it, a larger buffer with headroom replaces it', () => {
    const arena = new CopyArena();
    const first = arena.lend([1000, 1000])!;
    const buffer = first.views[0]!.buffer;
    const held = arena.byteLength;
    expect(held).toBeGreaterThanOrEqual(2000 * HEADROOM);
    first.release();
    const again = arena.lend([1200, 900])!; // grown parts, still within the headroom
    expect(again.views[0]!.buffer).toBe(buffer);
    expect(arena.byteLength).toBe(held);
    again.release();
    const grown = arena.lend([held, 8])!;
    expect(grown.views[0]!.buffer).not.toBe(buffer);
    expect(arena.byteLength).toBeGreaterThanOrEqual((held + 8) * HEADROOM);
    expect(grown.views[0]!.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  test('When the parts need more than the most it keeps, then nothing is lent and the memory it held is let go; headroom never passes that bound', () => {
    const arena = new CopyArena(1000);
    const within = arena.lend([600, 400])!; // 1000 bytes once aligned: fits exactly
    expect(arena.byteLength).toBe(1000); // 1000 × HEADROOM would pass the bound
    within.release();
    expect(arena.lend([600, 401])).toBeUndefined(); // 1008 bytes once aligned
    expect(arena.byteLength).toBe(0);
    expect(new CopyArena(0).lend([8])).toBeUndefined();
    expect(new CopyArena(0).lend([])).toBeDefined(); // no bytes to copy: an empty lease
  });
});
