// EASE (Steck 2019) in typed arrays: the Gram matrix G = XᵀX of a shopper × item matrix, its
// regularized inverse P = (G + λI)⁻¹, the weights B = I − P·diag(1/diag(P)) (zero diagonal), and
// each item's strongest positive weights as a compact top-K row. Pure and synchronous: meant to
// run in a worker (the inverse is n³/2 multiply-adds, tens of seconds at n = 5,000).
// Matrices are dense row-major Float32Array n×n (4n² bytes: 100 MB at n = 5,000), changed in place
// so one matrix is all the memory a fit needs besides its output rows. Only storage is single
// precision: every product and sum is a JavaScript double, each stored value rounded once (relative
// error ~6e-8; G's counts are exact below 2²⁴). Half the bytes of Float64 storage, so half the
// memory a refit holds and half the memory traffic of its inner loops; the rows it yields keep
// Float32 weights anyway.
import { TopK } from '../top-k.js';

/** A dense row-major n×n matrix: single precision in the refit; double for a reference (bench:quality). */
export type Matrix = Float32Array | Float64Array;

/**
 * Shopper histories as compressed rows: shopper s holds items[starts[s] .. starts[s + 1]) (each
 * item an index below n, at most once per shopper) with values[k] (1 for a plain EASE).
 */
export interface Histories {
  starts: Int32Array;
  items: Int32Array;
  values: Float32Array;
}

/** G = XᵀX (n×n, symmetric, full): Σ over shoppers of value_i · value_j for each pair of their items. O(Σ history²). `into`: an n×n buffer to reuse. */
export function gramMatrix(n: number, histories: Histories, precision: 'single' | 'double' = 'single', into?: Matrix): Matrix {
  const { starts, items, values } = histories;
  const g = into !== undefined ? into.fill(0) : precision === 'single' ? new Float32Array(n * n) : new Float64Array(n * n);
  for (let s = 0; s + 1 < starts.length; s++) {
    const end = starts[s + 1]!;
    for (let a = starts[s]!; a < end; a++) {
      const row = items[a]! * n;
      const va = values[a]!;
      for (let b = starts[s]!; b < end; b++) g[row + items[b]!] += va * values[b]!;
    }
  }
  return g;
}

/** Σ_{k=from}^{to-1} a[i0 + k] · a[j0 + k], with four partial sums (independent chains). */
function dot(a: Matrix, i0: number, j0: number, from: number, to: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = from;
  for (; k + 3 < to; k += 4) {
    s0 += a[i0 + k]! * a[j0 + k]!;
    s1 += a[i0 + k + 1]! * a[j0 + k + 1]!;
    s2 += a[i0 + k + 2]! * a[j0 + k + 2]!;
    s3 += a[i0 + k + 3]! * a[j0 + k + 3]!;
  }
  for (; k < to; k++) s0 += a[i0 + k]! * a[j0 + k]!;
  return s0 + s1 + s2 + s3;
}

/** Rows handled together: each row j read once serves this many dot products (memory traffic ÷ 4). */
const BLOCK = 4;

/**
 * out[x] = Σ_{k=from}^{to-1} a[r + x·n + k] · a[j0 + k] for x < 4: four rows (from r) against one row,
 * sharing each load of a[j0 + k].
 */
function dot4(a: Matrix, r: number, n: number, j0: number, from: number, to: number, out: Float64Array): void {
  const r1 = r + n;
  const r2 = r1 + n;
  const r3 = r2 + n;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  for (let k = from; k < to; k++) {
    const v = a[j0 + k]!;
    s0 += a[r + k]! * v;
    s1 += a[r1 + k]! * v;
    s2 += a[r2 + k]! * v;
    s3 += a[r3 + k]! * v;
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
  out[3] = s3;
}

/**
 * Inverts a symmetric positive definite n×n matrix in place (only its lower triangle is read);
 * returns false, the matrix then meaningless, when it is not positive definite.
 * A = L·Lᵀ (Cholesky), U = L⁻ᵀ, A⁻¹ = U·Uᵀ: three passes of n³/6 multiply-adds, each inner loop
 * a dot product of contiguous rows, four rows at a time against each earlier row. Storage: L in
 * the strict lower triangle with its diagonal aside, U in the strict upper triangle with its
 * diagonal aside, then A⁻¹ written into the lower triangle and diagonal (L is no longer needed)
 * and mirrored to the upper one.
 */
export function invertSpd(a: Matrix, n: number): boolean {
  const lDiag = new Float64Array(n);
  const uDiag = new Float64Array(n);
  const sums = new Float64Array(BLOCK);
  // Cholesky–Banachiewicz, row by row: L_ij = (A_ij − Σ_{k<j} L_ik L_jk) / L_jj.
  for (let i0 = 0; i0 < n; i0 += BLOCK) {
    const end = Math.min(n, i0 + BLOCK);
    if (end - i0 === BLOCK) {
      for (let j = 0; j < i0; j++) {
        dot4(a, i0 * n, n, j * n, 0, j, sums);
        for (let x = 0; x < BLOCK; x++) a[(i0 + x) * n + j] = (a[(i0 + x) * n + j]! - sums[x]!) / lDiag[j]!;
      }
    }
    for (let i = i0; i < end; i++) {
      const row = i * n;
      for (let j = end - i0 === BLOCK ? i0 : 0; j < i; j++) a[row + j] = (a[row + j]! - dot(a, row, j * n, 0, j)) / lDiag[j]!;
      const d = a[row + i]! - dot(a, row, row, 0, i);
      if (!(d > 0)) return false;
      lDiag[i] = Math.sqrt(d);
    }
  }
  // M = L⁻¹ (lower), kept transposed as U: M_ij = −(Σ_{k=j}^{i−1} L_ik M_kj) / L_ii, and M_kj = U_jk.
  for (let i0 = 0; i0 < n; i0 += BLOCK) {
    const end = Math.min(n, i0 + BLOCK);
    for (let i = i0; i < end; i++) uDiag[i] = 1 / lDiag[i]!;
    const full = end - i0 === BLOCK;
    for (let j = 0; j < (full ? i0 : 0); j++) {
      // The block's rows share k < i0; the rest reads U_jk of block rows just written.
      const rowJ = j * n;
      dot4(a, i0 * n, n, rowJ, j + 1, i0, sums);
      for (let x = 0; x < BLOCK; x++) {
        const i = i0 + x;
        const row = i * n;
        let sum = a[row + j]! * uDiag[j]! + sums[x]!;
        for (let k = i0; k < i; k++) sum += a[row + k]! * a[rowJ + k]!;
        a[rowJ + i] = -sum / lDiag[i]!;
      }
    }
    for (let i = i0; i < end; i++) {
      const row = i * n;
      for (let j = full ? i0 : 0; j < i; j++) {
        const sum = a[row + j]! * uDiag[j]! + dot(a, row, j * n, j + 1, i);
        a[j * n + i] = -sum / lDiag[i]!;
      }
    }
  }
  // P_ij = Σ_{k≥i} U_ik U_jk for j ≤ i: row i of U (diagonal aside) against row j.
  for (let i0 = 0; i0 < n; i0 += BLOCK) {
    const end = Math.min(n, i0 + BLOCK);
    const full = end - i0 === BLOCK;
    for (let j = 0; j < (full ? i0 : 0); j++) {
      // The block's rows share k ≥ i0 + BLOCK; each adds its own k in (i, i0 + BLOCK).
      const rowJ = j * n;
      dot4(a, i0 * n, n, rowJ, end, n, sums);
      for (let x = 0; x < BLOCK; x++) {
        const i = i0 + x;
        const row = i * n;
        let sum = uDiag[i]! * a[rowJ + i]! + sums[x]!;
        for (let k = i + 1; k < end; k++) sum += a[row + k]! * a[rowJ + k]!;
        a[row + j] = sum;
      }
    }
    for (let i = i0; i < end; i++) {
      const row = i * n;
      for (let j = full ? i0 : 0; j < i; j++) a[row + j] = uDiag[i]! * a[j * n + i]! + dot(a, row, j * n, i + 1, n);
      a[row + i] = uDiag[i]! * uDiag[i]! + dot(a, row, row, i + 1, n);
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) a[j * n + i] = a[i * n + j]!;
  return true;
}

/**
 * Turns G (n×n, changed in place) into EASE's B: B_ij = −P_ij / P_jj, B_ii = 0, with
 * P = (G + λI)⁻¹. Returns false when G + λI is not positive definite (λ ≤ 0 on a singular G).
 */
export function easeWeights(g: Matrix, n: number, lambda: number): boolean {
  for (let i = 0; i < n; i++) g[i * n + i] += lambda;
  if (!invertSpd(g, n)) return false;
  const diag = new Float64Array(n);
  for (let j = 0; j < n; j++) diag[j] = g[j * n + j]!;
  for (let i = 0; i < n; i++) {
    const row = i * n;
    for (let j = 0; j < n; j++) g[row + j] = i === j ? 0 : -g[row + j]! / diag[j]!;
  }
  return true;
}

/** Each item's strongest positive weights: row i's entries at [i·k, i·k + sizes[i]), strongest first. */
export interface EaseRows {
  n: number;
  k: number;
  sizes: Uint8Array;
  ids: Int32Array;
  weights: Float32Array;
}

/**
 * The k entries of each row of B that weigh most (ties: lower index first); k ≤ 255. O(n² log k).
 * `signed`: by magnitude, negative weights kept (they push a candidate down); else positive only.
 */
export function topRows(b: Matrix, n: number, k: number, signed = false): EaseRows {
  if (!Number.isInteger(k) || k < 1 || k > 255) throw new RangeError(`EASE neighbours must be an integer from 1 to 255, got ${k}`);
  const rows: EaseRows = { n, k, sizes: new Uint8Array(n), ids: new Int32Array(n * k), weights: new Float32Array(n * k) };
  const top = new TopK((x, y) => x - y);
  for (let i = 0; i < n; i++) {
    top.reset(k);
    const row = i * n;
    for (let j = 0; j < n; j++) {
      const w = b[row + j]!;
      if (w > 0) top.offer(j, w);
      else if (signed && w < 0) top.offer(j, -w);
    }
    const count = top.sort();
    rows.sizes[i] = count;
    for (let r = 0; r < count; r++) {
      rows.ids[i * k + r] = top.idAt(r);
      rows.weights[i * k + r] = b[row + top.idAt(r)]!;
    }
  }
  return rows;
}

/**
 * The whole fit: histories over n items → top-k EASE rows; undefined when λ does not make G + λI
 * positive definite. Rows keep negative weights by default: on bench:quality's validation split
 * they score nDCG@10 0.130 against 0.128 for positive-only rows (K = 100).
 */
export function fitEase(n: number, histories: Histories, lambda: number, k: number, signed = true, into?: Matrix): EaseRows | undefined {
  const g = gramMatrix(n, histories, 'single', into);
  return easeWeights(g, n, lambda) ? topRows(g, n, k, signed) : undefined;
}
