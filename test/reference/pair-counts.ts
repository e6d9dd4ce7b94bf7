// Reference for NeighborTable, in plain Maps: per row a Map of neighbour → weight in insertion
// order; past 2K neighbours the row keeps its K strongest (a stable sort picks them: ties go to
// the earlier entry), in their row order. Sums are rounded to float32, as the compact table stores them.

export class ReferencePairCounts {
  readonly rows = new Map<number, Map<number, number>>();

  constructor(readonly kept: number) {}

  add(row: number, id: number, weight: number): void {
    let neighbors = this.rows.get(row);
    if (neighbors === undefined) this.rows.set(row, (neighbors = new Map()));
    neighbors.set(id, Math.fround((neighbors.get(id) ?? 0) + weight));
    if (neighbors.size > 2 * this.kept) {
      const strongest = new Set([...neighbors].sort((a, b) => b[1] - a[1]).slice(0, this.kept).map(([neighbor]) => neighbor));
      this.rows.set(row, new Map([...neighbors].filter(([neighbor]) => strongest.has(neighbor))));
    }
  }

  weight(row: number, id: number): number {
    return this.rows.get(row)?.get(id) ?? 0;
  }

  /** The row's [neighbour, weight] entries in order. */
  entries(row: number): [number, number][] {
    return [...(this.rows.get(row) ?? [])];
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
