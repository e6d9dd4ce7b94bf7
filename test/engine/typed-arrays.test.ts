import { describe, expect, test } from 'vitest';
import { bytesOf, fromBytes, grownTo, handOver } from '../../src/engine/typed-arrays.js';

describe('fromBytes', () => {
  test('When bytes are not handed over, then the array is a copy: changing the source leaves it alone', () => {
    const source = Float64Array.of(1.5, -2, 3);
    const restored = fromBytes(Float64Array, bytesOf(source));
    source[0] = 99;
    expect(Array.from(restored)).toEqual([1.5, -2, 3]);
  });

  test('When bytes are handed over, then the array takes their buffer once, and a second restore of the same bytes copies', () => {
    const bytes = handOver(bytesOf(Int32Array.of(7, 8, 9)));
    const first = fromBytes(Int32Array, bytes);
    expect(first.buffer).toBe(bytes.buffer);
    const second = fromBytes(Int32Array, bytes);
    expect(second.buffer).not.toBe(bytes.buffer);
    expect(Array.from(second)).toEqual([7, 8, 9]);
  });

  test('When the bytes are a view into a larger buffer, then handing them over is ignored and the array is a copy', () => {
    const whole = new Uint8Array(16).fill(1);
    const view = handOver(whole.subarray(4, 12));
    const restored = fromBytes(Int32Array, view);
    expect(restored.buffer).not.toBe(whole.buffer);
    expect(restored.length).toBe(2);
  });
});

describe('grownTo', () => {
  test('When the array is a subclass (a Buffer, as msgpack decodes stored bytes), then the grown copy is a plain typed array and keeps the values', () => {
    const restored = Buffer.from([1, 2, 3]);
    const grown = grownTo(restored, 10);
    expect(Object.getPrototypeOf(grown)).toBe(Uint8Array.prototype);
    expect(Array.from(grown.subarray(0, 4))).toEqual([1, 2, 3, 0]);
    expect(grown.length).toBe(64);
  });
});
