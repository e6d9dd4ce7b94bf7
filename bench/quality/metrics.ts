// Ranking metrics of the offline evaluation: binary relevance, cut at k.

export function ndcgAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranked.length); i++) if (relevant.has(ranked[i]!)) dcg += 1 / Math.log2(i + 2);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function hitAt(k: number, ranked: readonly string[], relevant: ReadonlySet<string>): number {
  for (let i = 0; i < Math.min(k, ranked.length); i++) if (relevant.has(ranked[i]!)) return 1;
  return 0;
}

/** Accumulates HR@k, nDCG@k and catalog coverage over cases. */
export class Scoreboard {
  #cases = 0;
  #hits = 0;
  #ndcg = 0;
  readonly #shown = new Set<string>();

  constructor(readonly k: number) {}

  add(ranked: readonly string[], relevant: ReadonlySet<string>): void {
    this.#cases++;
    this.#hits += hitAt(this.k, ranked, relevant);
    this.#ndcg += ndcgAt(this.k, ranked, relevant);
    for (const id of ranked.slice(0, this.k)) this.#shown.add(id);
  }

  result(catalogSize: number): { cases: number; hr: number; ndcg: number; coverage: number } {
    return {
      cases: this.#cases,
      hr: this.#hits / Math.max(1, this.#cases),
      ndcg: this.#ndcg / Math.max(1, this.#cases),
      coverage: this.#shown.size / Math.max(1, catalogSize),
    };
  }
}
