// EASE (Steck 2019) as a batch reference (λ = 500, nDCG@10 0.108 when this protocol was first
// measured; bench:quality prints this run's own figure): the closed form on the binary customer ×
// item matrix of every training item, answers from the full dense B (Σ of the customer's rows over
// their training purchases), bought items skipped, ties by product order. λ is chosen on the
// validation splits (train cut at each of VALIDATION_CUTS, scores averaged), never on test.
import { easeWeights, gramMatrix, type Histories, type Matrix } from '../../src/engine/ease/solver.js';
import type { OrderLine } from './online-retail.js';
import { Scoreboard } from './metrics.js';
import type { CustomerCase, Split } from './protocol.js';

export interface EaseReference {
  codes: string[];
  index: Map<string, number>;
  /** n×n, row i: what buying codes[i] adds to each item. */
  b: Matrix;
}

/** Fits B on the lines' customers (binary: bought at least once); undefined if λ is not enough. */
export function fitReference(lines: readonly OrderLine[], lambda: number): EaseReference | undefined {
  const index = new Map<string, number>();
  const byCustomer = new Map<string, Set<number>>();
  for (const line of lines) {
    let item = index.get(line.stockCode);
    if (item === undefined) index.set(line.stockCode, (item = index.size));
    let set = byCustomer.get(line.customerId);
    if (!set) byCustomer.set(line.customerId, (set = new Set()));
    set.add(item);
  }
  const n = index.size;
  const b = gramMatrix(n, histories([...byCustomer.values()]), 'double');
  if (!easeWeights(b, n, lambda)) return undefined;
  return { codes: [...index.keys()], index, b };
}

export function histories(shoppers: readonly Iterable<number>[]): Histories {
  const items: number[] = [];
  const starts = new Int32Array(shoppers.length + 1);
  shoppers.forEach((set, s) => {
    for (const i of set) items.push(i);
    starts[s + 1] = items.length;
  });
  return { starts, items: Int32Array.from(items), values: new Float32Array(items.length).fill(1) };
}

/** The k best items for a customer who bought `bought`, none of them bought; ties by `order`. */
export function rankReference(model: EaseReference, bought: ReadonlySet<string>, k: number, order: ReadonlyMap<string, number>): string[] {
  const n = model.codes.length;
  const scores = new Float64Array(n);
  for (const code of bought) {
    const i = model.index.get(code);
    if (i === undefined) continue;
    const row = model.b.subarray(i * n, (i + 1) * n);
    for (let j = 0; j < n; j++) scores[j] += row[j]!;
  }
  const candidates: number[] = [];
  for (let j = 0; j < n; j++) if (!bought.has(model.codes[j]!)) candidates.push(j);
  candidates.sort((a, b) => scores[b]! - scores[a]! || order.get(model.codes[a]!)! - order.get(model.codes[b]!)!);
  return candidates.slice(0, k).map((j) => model.codes[j]!);
}

/** nDCG@k of the reference on customer cases. */
export function scoreReference(model: EaseReference, cases: readonly CustomerCase[], k: number, order: ReadonlyMap<string, number>): number {
  const board = new Scoreboard(k);
  for (const c of cases) board.add(rankReference(model, c.bought, k, order), c.relevant);
  return board.result(model.codes.length).ndcg;
}

/** The λ of `grid` with the best mean validation nDCG@k over the splits (fit before each cut, scored after it), with each λ's mean. */
export function tuneLambda(splits: readonly Split[], grid: readonly number[], k: number, order: ReadonlyMap<string, number>): { lambda: number; scores: Map<number, number> } {
  const scores = new Map<number, number>();
  for (const lambda of grid) {
    let sum = 0;
    for (const s of splits) {
      const model = fitReference(s.train, lambda);
      sum += model === undefined ? Number.NaN : scoreReference(model, s.customerCases, k, order);
    }
    if (!Number.isNaN(sum)) scores.set(lambda, sum / splits.length);
  }
  const lambda = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
  return { lambda, scores };
}
