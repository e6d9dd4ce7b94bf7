// Ids a load generator can ask about, chosen by the server that knows its data: products and
// collections of the catalog and sessions that have a browsing history.

export interface WorkloadSample {
  productIds: string[];
  collectionIds: string[];
  /** Sessions with views, so recently-viewed answers from the shopper's own history. */
  sessionIds: string[];
}

/** Spreads `count` picks evenly over `items` (deterministic, keeps the order). */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

/** A small deterministic PRNG (mulberry32) so generated data is the same every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
