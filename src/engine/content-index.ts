// Content similarity between catalog products: each product is a vector of features (vendor,
// product type, collections, tags, title words, price band) weighted by kind × IDF, compared by
// cosine. Candidates come from an inverted index; features shared by very many products (a 50k
// collection) still score but do not generate candidates. A product's neighbour list is cached
// until the catalog changes.
import type { Product } from './product.js';

export interface ContentNeighbors {
  readonly ids: readonly number[];
  readonly scores: readonly number[];
}

const KIND_WEIGHT: Readonly<Record<string, number>> = { v: 1, t: 1.5, c: 1, g: 1, w: 1, p: 0.5 };
/** Features in more products than this only score candidates found through rarer features. */
const MAX_GENERATING_POSTING = 2000;
/** Content neighbours kept per product. */
const KEPT = 50;
const STOPWORDS = new Set(['the', 'and', 'for', 'with', 'set', 'of', 'in', 'a', 'an', 'to', 'by', 'on', 'from', 'pack']);

/** Price bands grow by half at each step: 1.00–1.49, 1.50–2.24, … */
function priceBand(price: string | null): string | undefined {
  const value = price === null ? NaN : Number(price);
  return value > 0 ? String(Math.floor(Math.log(value) / Math.log(1.5))) : undefined;
}

export function contentFeatures(product: Product): string[] {
  const features = new Set<string>();
  if (product.vendor) features.add('v:' + product.vendor.toLowerCase());
  if (product.productType) features.add('t:' + product.productType.toLowerCase());
  for (const c of product.collections) features.add('c:' + c);
  for (const tag of product.tags) features.add('g:' + tag.toLowerCase());
  for (const word of product.title.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 3 && !STOPWORDS.has(word)) features.add('w:' + word);
  }
  const band = priceBand(product.price);
  if (band !== undefined) features.add('p:' + band);
  return [...features];
}

export class ContentIndex {
  readonly #postings = new Map<string, Set<number>>();
  readonly #features: (string[] | undefined)[] = [];
  #products = 0;
  #version = 0;
  readonly #cache = new Map<number, { version: number; neighbors: ContentNeighbors }>();
  /** Vector norms and feature weights at #normsVersion: both depend on every product's features. */
  readonly #norms = new Map<number, number>();
  readonly #weights = new Map<string, number>();
  #normsVersion = -1;

  index(dense: number, product: Product): void {
    this.remove(dense);
    const features = contentFeatures(product);
    this.#features[dense] = features;
    this.#products++;
    for (const f of features) {
      let posting = this.#postings.get(f);
      if (posting === undefined) this.#postings.set(f, (posting = new Set()));
      posting.add(dense);
    }
    this.#version++;
  }

  remove(dense: number): void {
    const features = this.#features[dense];
    if (features === undefined) return;
    for (const f of features) {
      const posting = this.#postings.get(f)!;
      posting.delete(dense);
      if (posting.size === 0) this.#postings.delete(f);
    }
    this.#features[dense] = undefined;
    this.#products--;
    this.#version++;
  }

  /** The product's most similar products by content, best first. Valid until the next change. */
  neighbors(dense: number, tieBreak: (a: number, b: number) => number): ContentNeighbors | undefined {
    const features = this.#features[dense];
    if (features === undefined) return undefined;
    const cached = this.#cache.get(dense);
    if (cached !== undefined && cached.version === this.#version) return cached.neighbors;
    const neighbors = this.#compute(dense, features, tieBreak);
    this.#cache.set(dense, { version: this.#version, neighbors });
    return neighbors;
  }

  #freshen(): void {
    if (this.#normsVersion === this.#version) return;
    this.#norms.clear();
    this.#weights.clear();
    this.#normsVersion = this.#version;
  }

  #weight(feature: string): number {
    let weight = this.#weights.get(feature);
    if (weight === undefined) {
      const df = this.#postings.get(feature)?.size ?? 0;
      weight = df === 0 ? 0 : KIND_WEIGHT[feature[0]!]! * Math.log(1 + this.#products / df);
      this.#weights.set(feature, weight);
    }
    return weight;
  }

  #norm(dense: number): number {
    let norm = this.#norms.get(dense);
    if (norm === undefined) {
      let sum = 0;
      for (const f of this.#features[dense]!) sum += this.#weight(f) ** 2;
      norm = Math.sqrt(sum);
      this.#norms.set(dense, norm);
    }
    return norm;
  }

  #compute(dense: number, features: readonly string[], tieBreak: (a: number, b: number) => number): ContentNeighbors {
    this.#freshen();
    const dot = new Map<number, number>();
    const common: string[] = [];
    for (const f of features) {
      const posting = this.#postings.get(f)!;
      if (posting.size > MAX_GENERATING_POSTING) {
        common.push(f);
        continue;
      }
      const w2 = this.#weight(f) ** 2;
      for (const other of posting) if (other !== dense) dot.set(other, (dot.get(other) ?? 0) + w2);
    }
    for (const f of common) {
      const posting = this.#postings.get(f)!;
      const w2 = this.#weight(f) ** 2;
      for (const [other, value] of dot) if (posting.has(other)) dot.set(other, value + w2);
    }
    const norm = this.#norm(dense);
    const scored: [number, number][] = [];
    for (const [other, value] of dot) scored.push([other, value / (norm * this.#norm(other))]);
    scored.sort((a, b) => b[1] - a[1] || tieBreak(a[0], b[0]));
    const kept = scored.slice(0, KEPT);
    return { ids: kept.map((e) => e[0]), scores: kept.map((e) => e[1]) };
  }
}
