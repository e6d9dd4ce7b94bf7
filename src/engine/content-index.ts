// Content similarity between catalog products: each product is a vector of features (vendor,
// product type, collections, tags, title words, price band) weighted by kind × IDF, compared by
// cosine. Candidates come from an inverted index; features shared by very many products (a 50k
// collection) still score but do not generate candidates.
// Each product's best neighbours are kept in typed arrays and recomputed only when they may have
// changed materially: the product's own features changed, a product sharing one of its
// candidate-generating features changed, joined or left, or the catalog grew or shrank by more
// than a tenth since (IDF weights drift slowly; between recomputes scores may lag that drift). precompute() fills them ahead of requests; a request for a stale product
// computes it then.
import { PostingLists } from './posting-lists.js';
import type { Product } from './product.js';
import { ScoreBoard } from './score-board.js';
import { TopK } from './top-k.js';
import type { TieBreak } from './top-list.js';
import { grownTo } from './typed-arrays.js';

/** Feature kinds: vendor, product type, collection, tag, title word, price band. */
const KIND_PREFIX = ['v:', 't:', 'c:', 'g:', 'w:', 'p:'] as const;
const KIND_WEIGHT = [1, 1.5, 1, 1, 1, 0.5] as const;
const [VENDOR, TYPE, COLLECTION, TAG, WORD, PRICE] = [0, 1, 2, 3, 4, 5] as const;
/** Features in more products than this only score candidates found through rarer features (500: the
 * same nDCG for similar on the Online Retail protocol as 2,000, at a quarter of the work per product). */
const MAX_GENERATING_POSTING = 500;
/** Content neighbours kept per product. */
export const CONTENT_NEIGHBORS = 50;
/** Catalog size drift past which a product's neighbours are recomputed (IDF weights moved). */
const MATERIAL_DRIFT = 0.1;
const STOPWORDS = new Set(['the', 'and', 'for', 'with', 'set', 'of', 'in', 'a', 'an', 'to', 'by', 'on', 'from', 'pack']);

/** Price bands grow by half at each step: 1.00–1.49, 1.50–2.24, … */
function priceBand(price: string | null): string | undefined {
  const value = price === null ? NaN : Number(price);
  return value > 0 ? String(Math.floor(Math.log(value) / Math.log(1.5))) : undefined;
}

/** Calls `each` with every content feature of the product (kind, value), repeats included. */
export function forEachContentFeature(product: Product, each: (kind: number, value: string) => void): void {
  if (product.vendor) each(VENDOR, product.vendor.toLowerCase());
  if (product.productType) each(TYPE, product.productType.toLowerCase());
  for (const c of product.collections) each(COLLECTION, c);
  for (const tag of product.tags) each(TAG, tag.toLowerCase());
  for (const word of product.title.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 3 && !STOPWORDS.has(word)) each(WORD, word);
  }
  const band = priceBand(product.price);
  if (band !== undefined) each(PRICE, band);
}

/** The product's distinct features as strings ('v:acme', 'w:mug', …). */
export function contentFeatures(product: Product): string[] {
  const features = new Set<string>();
  forEachContentFeature(product, (kind, value) => features.add(KIND_PREFIX[kind] + value));
  return [...features];
}

export class ContentIndex {
  /** Feature ids by kind, then value (no prefixed string built per lookup). */
  readonly #featureIds = KIND_PREFIX.map(() => new Map<string, number>());
  /** The product being indexed: its distinct feature ids. */
  #scratch = new Int32Array(64);
  #scratchSize = 0;
  readonly #collect = (kind: number, value: string): void => {
    const id = this.#featureId(kind, value);
    const scratch = this.#scratch;
    for (let k = 0; k < this.#scratchSize; k++) if (scratch[k] === id) return;
    if (this.#scratchSize === scratch.length) this.#scratch = grownTo(scratch, scratch.length + 1);
    this.#scratch[this.#scratchSize++] = id;
  };
  readonly #kindWeight: number[] = [];
  readonly #postings = new PostingLists();
  /** Per feature: the version at which a product last joined or left it. */
  #featureChanged = new Float64Array(0);
  /**
   * Per product: its feature ids, ascending, in `#pool` from `#featureSpans[2·dense]` (-1: not in
   * the catalog), `#featureSpans[2·dense + 1]` of them. One flat pool, not an array per product:
   * a candidate's features are one read away. A changed product's features are appended and the
   * pool compacted when it fills.
   */
  #pool = new Int32Array(1024);
  #poolUsed = 0;
  #featureSpans = new Int32Array(0);
  #dense = 0;
  #products = 0;
  /** Counts index/remove calls: the clock of every stamp here. */
  #version = 0;
  /** The version of the last change to any product's features or to the catalog's size. */
  #materialVersion = 0;
  /** Products whose neighbours were computed since #materialVersion: exact for the catalog as it is. */
  #exactCount = 0;
  /** Neighbours computed before this version are stale (refreshAll). */
  #refreshedAt = 0;
  /** Per product: the version its features last changed, and when and at what catalog size its neighbours were computed. */
  #ownChanged = new Float64Array(0);
  #computedAt = new Float64Array(0);
  #computedSize = new Float64Array(0);
  #count = new Uint8Array(0);
  #ids = new Int32Array(0);
  #scores = new Float32Array(0);
  /** IDF weights and vector norms, valid while their version equals #version. */
  #weight = new Float64Array(0);
  #weightVersion = new Float64Array(0);
  /** Per product: [the version its norm was computed at, the norm], side by side (one cache line per read). */
  #norms = new Float64Array(0);
  readonly #board = new ScoreBoard();
  #commonWeights = new Float64Array(0);
  #top: TopK | undefined;
  #cursor = 0;
  /** The version at which a full precompute pass found nothing stale. */
  #settledAt = -1;

  index(dense: number, product: Product): void {
    this.#scratchSize = 0;
    forEachContentFeature(product, this.#collect);
    const next = this.#scratch.subarray(0, this.#scratchSize).sort();
    this.#ensureProduct(dense);
    const indexed = this.#indexed(dense);
    if (!indexed) this.#products++;
    this.#version++;
    if (indexed) {
      const before = this.#featuresOf(dense);
      if (sameIds(before, next)) return;
      this.#materialChange();
      for (const f of before) if (!sortedHas(next, f)) this.#leave(f, dense);
      for (const f of next) if (!sortedHas(before, f)) this.#postings.add(f, dense);
      // The product's vector changed: its cosine with everyone sharing a feature did too.
      for (const f of before) this.#featureChanged[f] = this.#version;
    } else {
      this.#materialChange();
      for (const f of next) this.#postings.add(f, dense);
    }
    for (const f of next) this.#featureChanged[f] = this.#version;
    this.#store(dense, next);
    this.#ownChanged[dense] = this.#version;
  }

  remove(dense: number): void {
    if (!this.#indexed(dense)) return;
    this.#version++;
    this.#materialChange();
    for (const f of this.#featuresOf(dense)) this.#leave(f, dense);
    this.#featureSpans[2 * dense] = -1;
    this.#products--;
  }

  /**
   * The number of content neighbours of the product (0 when it is not in the catalog), computed
   * now if stale: they are `neighborIds[start(dense) + k]` with cosine `neighborScores[…]`, best
   * first. Valid until the next index/remove.
   */
  neighbors(dense: number, tieBreak: TieBreak): number {
    if (!this.#indexed(dense)) return 0;
    if (!this.#fresh(dense)) this.#compute(dense, tieBreak);
    return this.#count[dense]!;
  }

  start(dense: number): number {
    return dense * CONTENT_NEIGHBORS;
  }

  get neighborIds(): Int32Array {
    return this.#ids;
  }

  get neighborScores(): Float32Array {
    return this.#scores;
  }

  /**
   * Whether every product's neighbours were computed for the catalog as it is now. Lists computed
   * earlier may lag the IDF drift (see the module comment): two indexes given the same products in
   * the same order hold the same lists only once this is true (server processes, cluster nodes).
   */
  get exact(): boolean {
    return this.#exactCount === this.#products;
  }

  /** Grows at each change to a product's features or to the catalog's size (what can move the lists). */
  get changes(): number {
    return this.#materialVersion;
  }

  /** Makes every list that is not exact stale: the next precompute passes recompute them. */
  refreshAll(): void {
    this.#refreshedAt = this.#materialVersion;
    this.#settledAt = -1;
  }

  /**
   * Computes stale neighbour lists, at most `maxProducts` of them, resuming where the last call
   * stopped; returns how many it computed (0: every product is fresh).
   */
  precompute(maxProducts: number, tieBreak: TieBreak): number {
    if (this.#settledAt === this.#version) return 0;
    const total = this.#dense;
    let computed = 0;
    for (let seen = 0; seen < total && computed < maxProducts; seen++) {
      const dense = this.#cursor;
      this.#cursor = (this.#cursor + 1) % total;
      if (!this.#indexed(dense) || this.#fresh(dense)) continue;
      this.#compute(dense, tieBreak);
      computed++;
    }
    if (computed === 0) this.#settledAt = this.#version;
    return computed;
  }

  #featureId(kind: number, value: string): number {
    const ids = this.#featureIds[kind]!;
    let id = ids.get(value);
    if (id === undefined) {
      id = this.#postings.addList();
      ids.set(value, id);
      this.#kindWeight.push(KIND_WEIGHT[kind]!);
      this.#featureChanged = grownTo(this.#featureChanged, id + 1);
      this.#weight = grownTo(this.#weight, id + 1);
      this.#weightVersion = grownTo(this.#weightVersion, id + 1);
    }
    return id;
  }

  #leave(feature: number, dense: number): void {
    this.#postings.remove(feature, dense);
    this.#featureChanged[feature] = this.#version;
  }

  #indexed(dense: number): boolean {
    return dense < this.#dense && this.#featureSpans[2 * dense]! >= 0;
  }

  /** The product's feature ids (a view of the pool: valid until the next index). */
  #featuresOf(dense: number): Int32Array {
    const start = this.#featureSpans[2 * dense]!;
    return this.#pool.subarray(start, start + this.#featureSpans[2 * dense + 1]!);
  }

  #store(dense: number, features: Int32Array): void {
    if (this.#poolUsed + features.length > this.#pool.length) this.#compactPool(features.length);
    this.#pool.set(features, this.#poolUsed);
    this.#featureSpans[2 * dense] = this.#poolUsed;
    this.#featureSpans[2 * dense + 1] = features.length;
    this.#poolUsed += features.length;
  }

  /** Rewrites the pool with only the live products' features, grown to hold `extra` more. */
  #compactPool(extra: number): void {
    let live = 0;
    for (let d = 0; d < this.#dense; d++) if (this.#featureSpans[2 * d]! >= 0) live += this.#featureSpans[2 * d + 1]!;
    const pool = new Int32Array(Math.max(1024, 2 * (live + extra)));
    let used = 0;
    for (let d = 0; d < this.#dense; d++) {
      if (this.#featureSpans[2 * d]! < 0) continue;
      pool.set(this.#featuresOf(d), used);
      this.#featureSpans[2 * d] = used;
      used += this.#featureSpans[2 * d + 1]!;
    }
    this.#pool = pool;
    this.#poolUsed = used;
  }

  #ensureProduct(dense: number): void {
    if (dense >= this.#dense) {
      this.#featureSpans = grownTo(this.#featureSpans, 2 * (dense + 1));
      for (let d = this.#dense; d <= dense; d++) this.#featureSpans[2 * d] = -1;
      this.#dense = dense + 1;
    }
    if (dense < this.#count.length) return;
    this.#growRows(dense + 1);
  }

  /**
   * Sizes the per-product rows for `products` dense ids at once (a restore knows how many): growing
   * them by doubling as 100k products are upserted copies and page in ~2× their final 60 MB.
   */
  reserve(products: number): void {
    if (products > this.#count.length) this.#growRows(products, products);
  }

  #growRows(minRows: number, maxRows = Infinity): void {
    this.#count = grownTo(this.#count, minRows, maxRows);
    // The other rows follow the count's length exactly.
    const rows = this.#count.length;
    this.#ownChanged = grownTo(this.#ownChanged, rows, rows);
    this.#computedAt = grownTo(this.#computedAt, rows, rows);
    this.#computedSize = grownTo(this.#computedSize, rows, rows);
    this.#norms = grownTo(this.#norms, 2 * rows, 2 * rows);
    this.#ids = grownTo(this.#ids, rows * CONTENT_NEIGHBORS, rows * CONTENT_NEIGHBORS);
    this.#scores = grownTo(this.#scores, rows * CONTENT_NEIGHBORS, rows * CONTENT_NEIGHBORS);
  }

  /** Whether the product's kept neighbours still stand (see the module comment). */
  #fresh(dense: number): boolean {
    const at = this.#computedAt[dense]!;
    if (at === 0 || at < this.#refreshedAt || this.#ownChanged[dense]! > at) return false;
    if (Math.abs(this.#products - this.#computedSize[dense]!) > MATERIAL_DRIFT * this.#computedSize[dense]!) return false;
    for (const f of this.#featuresOf(dense)) {
      if (this.#featureChanged[f]! > at && this.#postings.size(f) <= MAX_GENERATING_POSTING) return false;
    }
    return true;
  }

  #materialChange(): void {
    this.#materialVersion = this.#version;
    this.#exactCount = 0;
  }

  #weightOf(feature: number): number {
    if (this.#weightVersion[feature] !== this.#version) {
      const df = this.#postings.size(feature);
      this.#weight[feature] = df === 0 ? 0 : this.#kindWeight[feature]! * Math.log(1 + this.#products / df);
      this.#weightVersion[feature] = this.#version;
    }
    return this.#weight[feature]!;
  }

  #normOf(dense: number): number {
    const norms = this.#norms;
    if (norms[2 * dense] !== this.#version) {
      let sum = 0;
      const start = this.#featureSpans[2 * dense]!;
      for (let k = start; k < start + this.#featureSpans[2 * dense + 1]!; k++) sum += this.#weightOf(this.#pool[k]!) ** 2;
      norms[2 * dense] = this.#version;
      norms[2 * dense + 1] = Math.sqrt(sum);
    }
    return norms[2 * dense + 1]!;
  }

  /** Cosine to every product sharing a generating feature, best CONTENT_NEIGHBORS kept. */
  #compute(dense: number, tieBreak: TieBreak): void {
    const features = this.#featuresOf(dense);
    const board = this.#board;
    // Squared weights of this product's common features, by feature id (0 elsewhere).
    const commonWeights = (this.#commonWeights = grownTo(this.#commonWeights, this.#postings.count));
    let hasCommon = false;
    for (const f of features) {
      const size = this.#postings.size(f);
      if (size > MAX_GENERATING_POSTING) {
        commonWeights[f] = this.#weightOf(f) ** 2;
        hasCommon = true;
        continue;
      }
      const w2 = this.#weightOf(f) ** 2;
      const posting = this.#postings.ids();
      const start = this.#postings.start(f);
      for (let k = start; k < start + size; k++) {
        const other = posting[k]!;
        if (other !== dense) board.add(other, w2);
      }
    }
    const top = (this.#top ??= new TopK(tieBreak));
    top.reset(CONTENT_NEIGHBORS);
    const norm = this.#normOf(dense);
    for (let i = 0; i < board.touchedCount; i++) {
      const other = board.touchedAt(i);
      let dot = board.score(other);
      if (hasCommon) {
        const pool = this.#pool;
        const start = this.#featureSpans[2 * other]!;
        const end = start + this.#featureSpans[2 * other + 1]!;
        for (let k = start; k < end; k++) dot += commonWeights[pool[k]!]!;
      }
      top.offer(other, dot / (norm * this.#normOf(other)));
    }
    board.clear();
    for (const f of features) commonWeights[f] = 0;
    const count = top.sort();
    const start = dense * CONTENT_NEIGHBORS;
    for (let r = 0; r < count; r++) {
      this.#ids[start + r] = top.idAt(r);
      this.#scores[start + r] = top.scoreAt(r);
    }
    this.#count[dense] = count;
    if (this.#computedAt[dense]! < this.#materialVersion) this.#exactCount++;
    this.#computedAt[dense] = this.#version;
    this.#computedSize[dense] = this.#products;
  }
}

/** Whether two ascending id lists are equal. */
function sameIds(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Whether an ascending id list holds `id` (binary search). */
function sortedHas(ids: Int32Array, id: number): boolean {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (ids[mid] === id) return true;
    if (ids[mid]! < id) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}
