// Binary searches over values sorted ascending: O(log n), no allocation.

/** The first index whose value is ≥ `value` (the length when none is). */
export function firstAtLeast(values: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first index whose value is > `value` (the length when none is): how many are ≤ `value`. */
export function firstAbove(values: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! <= value) low = middle + 1;
    else high = middle;
  }
  return low;
}
