// Per shop, the catalog's filterable attributes as compact indexes over dense product ids, kept in
// step with every upsert and removal (ShopEngine calls index/remove):
//   - one posting list per (attribute, text value): vendor, productType, each tag and collection,
//     onSale and available (true/false), and each custom attribute value (a number also as its text);
//   - one Float64Array column per numeric attribute (price, compareAtPrice, custom numbers; NaN:
//     none), with its ids sorted by value built on demand, so a range is two binary searches;
//   - per product, the posting lists it is in, in a pool of their own (one typed array: a product's
//     few entries side by side): a candidate is tested against a filter by reading its own entries
//     (candidate-test.ts) instead of selecting over the catalog.
// A filter is evaluated on these (compiled-filter.ts), never by reading each catalog product. The
// set of all catalog products and the last few sets relative filters selected are kept until the
// index changes.
import { PostingLists } from '../posting-lists.js';
import type { Product } from '../product.js';
import { firstAbove, firstAtLeast } from '../sorted-search.js';
import { grownTo } from '../typed-arrays.js';
import { BUILT_IN_ATTRIBUTES, numberValue, textValues } from './attributes.js';
import { MatchSet } from './match-set.js';

interface NumberColumn {
  values: Float64Array;
  /** Ids with a value, by value (ties by id), and their values; undefined: stale, rebuilt on use. */
  sorted?: { ids: Int32Array; values: Float64Array };
}

const PRESENT = '\u0000present';
/** Selections kept at the index's version (keepSelection): at most this many, the oldest out first. */
export const MAX_KEPT_SELECTIONS = 64;

export class AttributeIndex {
  readonly #lists = new PostingLists();
  /** `attribute \0 value` → its posting list. */
  readonly #features = new Map<string, number>();
  /** Per dense id (a list each): the posting lists it is in; none: not a catalog product. */
  readonly #ofProduct = new PostingLists();
  readonly #numbers = new Map<string, NumberColumn>();
  /** Custom attribute name → number of catalog products that have it. */
  readonly #customNames = new Map<string, number>();
  readonly #customOf: (readonly string[] | undefined)[] = [];
  /** Dense ids handed out so far (the size of every MatchSet). */
  #size = 0;
  #version = 0;
  #namesVersion = 0;
  #present: MatchSet | undefined;
  /** Selections computed at #keptVersion, by key (keepSelection). */
  readonly #kept = new Map<string, MatchSet>();
  #keptVersion = 0;

  /** Changes with every indexed change: a filter's selection computed at one version holds until the next. */
  get version(): number {
    return this.#version;
  }

  /** Changes when a custom attribute name appears or disappears: a filter's compile result holds until then. */
  get namesVersion(): number {
    return this.#namesVersion;
  }

  /** Dense ids 0 … size − 1 may be catalog products. */
  get size(): number {
    return this.#size;
  }

  /** Whether some catalog product has this custom attribute. */
  hasCustom(name: string): boolean {
    return this.#customNames.has(name);
  }

  index(dense: number, product: Product): void {
    const before = this.#featuresOf(dense);
    this.#forget(dense);
    this.#version++;
    this.#size = Math.max(this.#size, dense + 1);
    const features: number[] = [this.#feature(PRESENT, '')];
    for (const attribute of Object.keys(BUILT_IN_ATTRIBUTES)) {
      if (BUILT_IN_ATTRIBUTES[attribute] === 'number') continue;
      for (const value of textValues(product, attribute)) features.push(this.#feature(attribute, value));
    }
    this.#setNumber('price', dense, numberValue(product, 'price'));
    this.#setNumber('compareAtPrice', dense, numberValue(product, 'compareAtPrice'));
    const custom = product.attributes === undefined ? [] : Object.keys(product.attributes);
    for (const name of custom) {
      const value = product.attributes![name]!;
      features.push(this.#feature(name, String(value)));
      if (typeof value === 'number') this.#setNumber(name, dense, value);
      const count = this.#customNames.get(name) ?? 0;
      if (count === 0) this.#namesVersion++;
      this.#customNames.set(name, count + 1);
    }
    // Only the lists whose value changed: a removal scans its list, and the lists of PRESENT and of
    // available:true hold most of the catalog, so relisting every value would make each product
    // edit cost a pass over the catalog.
    if (before !== undefined) for (const feature of before) if (!features.includes(feature)) this.#lists.remove(feature, dense);
    for (const feature of features) if (before === undefined || !before.includes(feature)) this.#lists.add(feature, dense);
    while (this.#ofProduct.count <= dense) this.#ofProduct.addList();
    this.#ofProduct.clear(dense);
    for (const feature of features) this.#ofProduct.add(dense, feature);
    this.#customOf[dense] = custom;
  }

  remove(dense: number): void {
    const features = this.#featuresOf(dense);
    if (features === undefined) return;
    this.#version++;
    for (const feature of features) this.#lists.remove(feature, dense);
    this.#ofProduct.clear(dense);
    this.#forget(dense);
  }

  /** A copy of the product's features (undefined: not a catalog product). */
  #featuresOf(dense: number): number[] | undefined {
    const count = this.featureCount(dense);
    if (count === 0) return undefined;
    const start = this.#ofProduct.start(dense);
    return Array.from(this.#ofProduct.ids().subarray(start, start + count));
  }

  /** Drops the product's numbers and its custom attribute names (not its listed values). */
  #forget(dense: number): void {
    for (const column of this.#numbers.values()) {
      if (dense < column.values.length && column.values[dense] === column.values[dense]) {
        column.values[dense] = NaN;
        column.sorted = undefined;
      }
    }
    for (const name of this.#customOf[dense] ?? []) {
      const count = this.#customNames.get(name)! - 1;
      if (count === 0) {
        this.#customNames.delete(name);
        this.#numbers.delete(name);
        this.#namesVersion++;
      } else this.#customNames.set(name, count);
    }
    this.#customOf[dense] = undefined;
  }

  /** Adds to `into` the products holding `value` for `attribute` (text form). */
  addHolding(attribute: string, value: string, into: MatchSet): void {
    const feature = this.#features.get(attribute + '\u0000' + value);
    if (feature === undefined) return;
    const ids = this.#lists.ids();
    const start = this.#lists.start(feature);
    const end = start + this.#lists.size(feature);
    for (let i = start; i < end; i++) into.add(ids[i]!);
  }

  /** Every catalog product. Valid until the index changes; do not modify it (copy() it). */
  present(): MatchSet {
    if (this.#present === undefined || this.#keptVersion !== this.#version) {
      this.#clearKept();
      const present = new MatchSet(this.#size);
      this.addHolding(PRESENT, '', present);
      this.#present = present;
    }
    return this.#present;
  }

  /** A selection kept by keepSelection at the current version, if any. */
  keptSelection(key: string): MatchSet | undefined {
    if (this.#keptVersion !== this.#version) this.#clearKept();
    return this.#kept.get(key);
  }

  /** Keeps a selection computed at the current version, under `key`, until the index changes. */
  keepSelection(key: string, set: MatchSet): void {
    if (this.#keptVersion !== this.#version) this.#clearKept();
    this.#kept.delete(key);
    if (this.#kept.size >= MAX_KEPT_SELECTIONS) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, set);
  }

  #clearKept(): void {
    this.#kept.clear();
    this.#present = undefined;
    this.#keptVersion = this.#version;
  }

  /** The feature (posting list) of `value` for `attribute` (text form); undefined: no product ever held it. */
  featureOf(attribute: string, value: string): number | undefined {
    return this.#features.get(attribute + '\u0000' + value);
  }

  /**
   * How many features (posting lists) the product is in: 0 when it is not a catalog product. They
   * are featurePool()[featureStart(dense) … featureStart(dense) + featureCount(dense) − 1].
   */
  featureCount(dense: number): number {
    return dense < this.#ofProduct.count ? this.#ofProduct.size(dense) : 0;
  }

  featureStart(dense: number): number {
    return this.#ofProduct.start(dense);
  }

  /** Where every product's features are (featureCount): valid until the index changes. */
  featurePool(): Int32Array {
    return this.#ofProduct.ids();
  }

  /**
   * The column of a numeric attribute: a product's number at its dense id (NaN, or past the end:
   * none). Valid until the index changes.
   */
  numbersOf(attribute: string): Float64Array | undefined {
    return this.#numbers.get(attribute)?.values;
  }

  /**
   * Adds to `into` the products whose number for `attribute` lies between `low` and `high`
   * (each end included or not); products without a number never match.
   */
  addBetween(attribute: string, low: number, lowIncluded: boolean, high: number, highIncluded: boolean, into: MatchSet): void {
    const column = this.#numbers.get(attribute);
    if (column === undefined) return;
    const sorted = (column.sorted ??= sortColumn(column.values, this.#size));
    const from = lowIncluded ? firstAtLeast(sorted.values, low) : firstAbove(sorted.values, low);
    const to = highIncluded ? firstAbove(sorted.values, high) : firstAtLeast(sorted.values, high);
    for (let i = from; i < to; i++) into.add(sorted.ids[i]!);
  }

  #feature(attribute: string, value: string): number {
    const key = attribute + '\u0000' + value;
    let feature = this.#features.get(key);
    if (feature === undefined) {
      feature = this.#lists.addList();
      this.#features.set(key, feature);
    }
    return feature;
  }

  #setNumber(attribute: string, dense: number, value: number): void {
    let column = this.#numbers.get(attribute);
    if (column === undefined) {
      if (value !== value) return;
      column = { values: new Float64Array(0) };
      this.#numbers.set(attribute, column);
    }
    if (column.values.length <= dense) {
      const before = column.values.length;
      column.values = grownTo(column.values, dense + 1);
      column.values.fill(NaN, before);
    }
    if (Object.is(column.values[dense], value)) return;
    column.values[dense] = value;
    column.sorted = undefined;
  }
}

function sortColumn(values: Float64Array, size: number): { ids: Int32Array; values: Float64Array } {
  const ids: number[] = [];
  for (let dense = 0; dense < Math.min(size, values.length); dense++) if (values[dense] === values[dense]) ids.push(dense);
  ids.sort((a, b) => values[a]! - values[b]! || a - b);
  return { ids: Int32Array.from(ids), values: Float64Array.from(ids, (id) => values[id]!) };
}
