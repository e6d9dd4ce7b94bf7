// Reference for NeighborTable, in plain Maps: per row a Map of neighbour → [weight, total] in
// insertion order; past 2K neighbours the row keeps its K strongest by strength(weight, total) (a
// stable sort picks them: ties go to the earlier entry), in their row order. Sums and strengths
// are rounded to float32, as the compact table stores them.

export class ReferencePairCounts {
  readonly rows = new Map<number, Map<number, [weight: number, total: number]>>();

  constructor(
    readonly kept: number,
    readonly strength: (weight: number, total: number) => number = (weight) => weight,
  ) {}

  add(row: number, id: number, weight: number, total = weight): void {
    let neighbors = this.rows.get(row);
    if (neighbors === undefined) this.rows.set(row, (neighbors = new Map()));
    const [w, t] = neighbors.get(id) ?? [0, 0];
    neighbors.set(id, [Math.fround(w + weight), Math.fround(t + total)]);
    if (neighbors.size > 2 * this.kept) {
      const strengthOf = ([, [w, t]]: [number, [number, number]]) => Math.fround(this.strength(w, t));
      const strongest = new Set([...neighbors].sort((a, b) => strengthOf(b) - strengthOf(a)).slice(0, this.kept).map(([neighbor]) => neighbor));
      this.rows.set(row, new Map([...neighbors].filter(([neighbor]) => strongest.has(neighbor))));
    }
  }

  weight(row: number, id: number): number {
    return this.rows.get(row)?.get(id)?.[0] ?? 0;
  }

  total(row: number, id: number): number {
    return this.rows.get(row)?.get(id)?.[1] ?? 0;
  }

  /** The row's [neighbour, weight] entries in order. */
  entries(row: number): [number, number][] {
    return [...(this.rows.get(row) ?? [])].map(([id, [weight]]) => [id, weight]);
  }

  /** The row's [neighbour, weight, total] entries in order. */
  entriesWithTotals(row: number): [number, number, number][] {
    return [...(this.rows.get(row) ?? [])].map(([id, [weight, total]]) => [id, weight, total]);
  }
}

/** Exact pair weights, never pruned: what a kept weight may not exceed. */
export class ExactPairCounts {
  readonly rows = new Map<number, Map<number, number>>();

  add(row: number, id: number, weight: number): void {
    let neighbors = this.rows.get(row);
    if (neighbors === undefined) this.rows.set(row, (neighbors = new Map()));
    neighbors.set(id, (neighbors.get(id) ?? 0) + weight);
  }

  weight(row: number, id: number): number {
    return this.rows.get(row)?.get(id) ?? 0;
  }
}
