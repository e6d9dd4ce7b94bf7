// Reference for ContentIndex: cosine of kind × IDF weighted feature vectors computed from scratch
// over the whole catalog, in plain Maps, with a full sort. Candidates are the products sharing a
// feature held by at most 500 products, as in the index.
import { contentFeatures } from '../../src/engine/content-index.js';
import type { Product } from '../../src/engine/product.js';

const KIND_WEIGHT: Record<string, number> = { v: 1, t: 1.5, c: 1, g: 1, w: 1, p: 0.5 };

export function referenceContentNeighbors(catalog: ReadonlyMap<number, Product>, dense: number, order: (a: number, b: number) => number, kept = 50): [number, number][] {
  const features = new Map<number, string[]>();
  const df = new Map<string, number>();
  for (const [id, product] of catalog) {
    const list = contentFeatures(product);
    features.set(id, list);
    for (const f of list) df.set(f, (df.get(f) ?? 0) + 1);
  }
  const weight = (f: string) => KIND_WEIGHT[f[0]!]! * Math.log(1 + catalog.size / df.get(f)!);
  const norm = (id: number) => Math.sqrt(features.get(id)!.reduce((sum, f) => sum + weight(f) ** 2, 0));
  const own = new Set(features.get(dense)!);
  const scored: [number, number][] = [];
  for (const [other, theirs] of features) {
    if (other === dense || !theirs.some((f) => own.has(f) && df.get(f)! <= 500)) continue;
    let dot = 0;
    for (const f of theirs) if (own.has(f)) dot += weight(f) ** 2;
    scored.push([other, dot / (norm(dense) * norm(other))]);
  }
  return scored.sort((a, b) => b[1] - a[1] || order(a[0], b[0])).slice(0, kept);
}
