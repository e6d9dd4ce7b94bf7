// Reference for the EASE solver: Gauss–Jordan elimination with partial pivoting on number[][]
// (no symmetry used), and B = I − P·diag(1/diag(P)) from it, straight from Steck (2019).

export function referenceInverse(matrix: readonly (readonly number[])[]): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let p = 0; p < n; p++) {
    let best = p;
    for (let r = p + 1; r < n; r++) if (Math.abs(a[r]![p]!) > Math.abs(a[best]![p]!)) best = r;
    [a[p], a[best]] = [a[best]!, a[p]!];
    const pivot = a[p]![p]!;
    a[p] = a[p]!.map((v) => v / pivot);
    for (let r = 0; r < n; r++) {
      if (r === p) continue;
      const factor = a[r]![p]!;
      a[r] = a[r]!.map((v, c) => v - factor * a[p]![c]!);
    }
  }
  return a.map((row) => row.slice(n));
}

/** X as shopper rows of item lists (binary), n items: EASE's B as number[][]. */
export function referenceEase(n: number, shoppers: readonly (readonly number[])[], lambda: number): number[][] {
  const g = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? lambda : 0)));
  for (const items of shoppers) for (const i of items) for (const j of items) g[i]![j]! += 1;
  const p = referenceInverse(g);
  return p.map((row, i) => row.map((v, j) => (i === j ? 0 : -v / p[j]![j]!)));
}
