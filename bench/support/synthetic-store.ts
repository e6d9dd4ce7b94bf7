// A deterministic synthetic store for engine benchmarks: a catalog with realistic skew (Zipf-like
// popularity, departments → themes → products, ~200 collections of very different sizes including
// one holding half the catalog, vendors, product types, tags, title words, price bands, a few
// percent unavailable) and the samplers the event stream (synthetic-events.ts) draws from.
// Same shape and seed → the same store, byte for byte.
import type { Product } from '../../src/engine/product.js';
import { prng } from './prng.js';

export interface StoreShape {
  products: number;
  /** Events the stream is sized for: sets the customer pool and the time step. */
  events: number;
  /** Days of event time the events span. */
  days: number;
  seed: number;
}

/** Picks an index with probability ∝ its weight: cumulative sums and a binary search, O(log n). */
export class WeightedSampler {
  readonly #cumulative: Float64Array;
  readonly #items: Int32Array;

  constructor(items: ArrayLike<number>, weight: (item: number) => number) {
    this.#items = Int32Array.from(items);
    this.#cumulative = new Float64Array(this.#items.length);
    let sum = 0;
    for (let i = 0; i < this.#items.length; i++) this.#cumulative[i] = sum += weight(this.#items[i]!);
  }

  get size(): number {
    return this.#items.length;
  }

  /** `r` uniform in [0, 1). */
  pick(r: number): number {
    const cumulative = this.#cumulative;
    const x = r * cumulative[cumulative.length - 1]!;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.#items[lo]!;
  }
}

export interface SyntheticCollection {
  id: string;
  kind: 'sale' | 'department' | 'theme-group' | 'curated';
  size: number;
}

const DEPARTMENTS = [
  'apparel', 'footwear', 'kitchen', 'garden', 'beauty', 'toys', 'sports', 'electronics', 'decor', 'pets',
  'books', 'jewelry', 'outdoors', 'office', 'baby', 'pantry', 'wellness', 'auto', 'crafts', 'music',
];
const NOUNS = [
  'shirt', 'sneaker', 'skillet', 'planter', 'serum', 'puzzle', 'racket', 'speaker', 'vase', 'leash',
  'journal', 'ring', 'tent', 'stapler', 'blanket', 'granola', 'roller', 'wiper', 'yarn', 'ukulele',
  'jacket', 'boot', 'knife', 'hose', 'balm', 'blocks', 'ball', 'charger', 'lamp', 'bowl',
  'novel', 'bracelet', 'lantern', 'notebook', 'bib', 'tea', 'mat', 'mount', 'brush', 'strings',
];
const ADJECTIVES = [
  'classic', 'modern', 'vintage', 'compact', 'deluxe', 'essential', 'everyday', 'premium', 'rustic', 'sleek',
  'cozy', 'bold', 'soft', 'rugged', 'handmade', 'organic', 'portable', 'smart', 'tiny', 'grand',
];
const COLORS = ['black', 'white', 'navy', 'olive', 'sand', 'rose', 'teal', 'amber', 'slate', 'ivory', 'coral', 'sage'];
const MATERIALS = ['cotton', 'linen', 'wool', 'leather', 'oak', 'walnut', 'steel', 'ceramic', 'glass', 'bamboo', 'cork', 'silk'];
const THEME_WORDS = [
  'summer', 'alpine', 'coastal', 'urban', 'nordic', 'desert', 'garden', 'studio', 'harvest', 'midnight',
  'festival', 'holiday', 'weekend', 'campus', 'island', 'forest', 'retro', 'cabin', 'market', 'atelier',
];
const EXTRA_TAGS = ['new', 'bestseller', 'eco', 'gift', 'limited', 'bundle', 'clearance', 'exclusive'];
const VENDOR_HEADS = ['Nor', 'Kal', 'Bri', 'Ver', 'Sol', 'Mar', 'Tes', 'Lun', 'Ori', 'Zen', 'Ash', 'Fen'];
const VENDOR_TAILS = ['dale', 'worth', 'ton', 'mark', 'field', 'craft', 'ware', 'line', 'wood', 'stone'];

const DEPARTMENT_COLLECTIONS = DEPARTMENTS.length;
const THEME_GROUP_COLLECTIONS = 100;
const CURATED_COLLECTIONS = 79;
/** 1 sale + 20 departments + 100 theme groups + 79 curated = 200. */
export const COLLECTION_COUNT = 1 + DEPARTMENT_COLLECTIONS + THEME_GROUP_COLLECTIONS + CURATED_COLLECTIONS;

/** A standard normal draw (Box-Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

function shuffled(count: number, random: () => number): Int32Array {
  const order = Int32Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

export class SyntheticStore {
  readonly products: Product[] = [];
  /** Popularity weight of each product index (Zipf over a shuffled rank). */
  readonly weight: Float64Array;
  /** Theme of each product; themes belong to departments and have related themes. */
  readonly themeOf: Int32Array;
  readonly themeSamplers: (WeightedSampler | undefined)[] = [];
  readonly themeSampler: WeightedSampler;
  /** Three related themes per theme: where co-purchases and theme switches go. */
  readonly related: Int32Array;
  /** Two complements per product (from related themes): the strong bought-together pairs. */
  readonly complements: Int32Array;
  readonly productSampler: WeightedSampler;
  readonly collections: SyntheticCollection[] = [];
  readonly customerIds: string[];
  readonly customerSampler: WeightedSampler;
  /** Two home themes per customer: what a returning customer keeps browsing. */
  readonly homeThemes: Int32Array;
  /** Product ids that events name but the catalog never had (deleted products). */
  readonly unknownIds: string[];
  readonly startTime = Date.UTC(2026, 8, 1);
  readonly themes: number;

  constructor(readonly shape: StoreShape) {
    const random = prng(shape.seed);
    const n = shape.products;
    this.themes = Math.max(20, Math.round(n / 50));
    const rank = shuffled(n, random);
    this.weight = Float64Array.from(rank, (r) => 1 / (r + 1) ** 0.9);

    // Themes of Zipf-like sizes, each in a department; departments get very different sizes too.
    const themeSize = new WeightedSampler(shuffled(this.themes, random), (t) => 1 / (t + 1) ** 0.7);
    const departmentOf = Int32Array.from({ length: this.themes }, () => Math.floor(DEPARTMENTS.length * random() ** 1.6));
    this.themeOf = Int32Array.from({ length: n }, () => themeSize.pick(random()));
    const members: number[][] = Array.from({ length: this.themes }, () => []);
    for (let i = 0; i < n; i++) members[this.themeOf[i]!]!.push(i);
    for (const list of members) this.themeSamplers.push(list.length === 0 ? undefined : new WeightedSampler(list, (i) => this.weight[i]!));
    const nonEmpty = members.flatMap((list, t) => (list.length > 0 ? [t] : []));
    // A theme draws sessions in proportion to its products' summed popularity.
    this.themeSampler = new WeightedSampler(nonEmpty, (t) => members[t]!.reduce((sum, i) => sum + this.weight[i]!, 0));
    const byDepartment: number[][] = DEPARTMENTS.map(() => []);
    for (const t of nonEmpty) byDepartment[departmentOf[t]!]!.push(t);
    this.related = new Int32Array(this.themes * 3);
    for (let t = 0; t < this.themes; t++) {
      const sameDepartment = byDepartment[departmentOf[t]!]!;
      for (let k = 0; k < 3; k++) {
        const pool = k < 2 && sameDepartment.length > 0 ? sameDepartment : nonEmpty;
        this.related[t * 3 + k] = pool[Math.floor(random() * pool.length)]!;
      }
    }
    this.productSampler = new WeightedSampler(Int32Array.from({ length: n }, (_, i) => i), (i) => this.weight[i]!);
    this.complements = new Int32Array(n * 2);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 2; k++) this.complements[i * 2 + k] = this.fromTheme(this.relatedTheme(this.themeOf[i]!, random()), random());
    }

    // Collections: one sale collection with half the catalog, departments, theme groups, curated lists.
    const memberships: number[][] = Array.from({ length: n }, () => []);
    const collectionId = (k: number) => String(400_000_000_000 + k * 97);
    for (let i = 0; i < n; i++) {
      const department = departmentOf[this.themeOf[i]!]!;
      if (random() < 0.9) memberships[i]!.push(1 + department);
      const theme = this.themeOf[i]!;
      if (theme % 5 < 3 && random() < 0.95) memberships[i]!.push(1 + DEPARTMENT_COLLECTIONS + ((theme * 7) % THEME_GROUP_COLLECTIONS));
      if (random() < 0.5) memberships[i]!.push(0);
    }
    const firstCurated = 1 + DEPARTMENT_COLLECTIONS + THEME_GROUP_COLLECTIONS;
    for (let k = 0; k < CURATED_COLLECTIONS; k++) {
      const target = Math.max(10, Math.round(Math.min(3000, n * 0.03) / (k + 1) ** 1.1));
      const chosen = new Set<number>();
      for (let tries = 0; chosen.size < target && tries < target * 20; tries++) {
        chosen.add(k % 2 === 0 ? this.productSampler.pick(random()) : Math.floor(random() * n));
      }
      for (const i of chosen) memberships[i]!.push(firstCurated + k);
    }
    const sizes = new Int32Array(COLLECTION_COUNT);
    for (const list of memberships) for (const c of list) sizes[c]!++;
    for (let k = 0; k < COLLECTION_COUNT; k++) {
      const kind = k === 0 ? 'sale' : k <= DEPARTMENT_COLLECTIONS ? 'department' : k < firstCurated ? 'theme-group' : 'curated';
      this.collections.push({ id: collectionId(k), kind, size: sizes[k]! });
    }

    // Vendors belong to a department; their sizes are skewed as well.
    const vendorsPerDepartment = Math.max(3, Math.round(n / 100 / DEPARTMENTS.length));
    const vendorSampler = new WeightedSampler(Int32Array.from({ length: vendorsPerDepartment }, (_, i) => i), (v) => 1 / (v + 1));
    const typeBase = Float64Array.from({ length: DEPARTMENTS.length * 8 }, () => Math.exp(1.5 + random() * 3.5));
    for (let i = 0; i < n; i++) {
      const theme = this.themeOf[i]!;
      const department = departmentOf[theme]!;
      const typeIndex = department * 8 + Math.floor(random() * 8);
      const noun = NOUNS[(department + 20 * Math.floor(typeIndex % 2)) % NOUNS.length]!;
      const vendor = vendorSampler.pick(random());
      const vendorName = `${VENDOR_HEADS[(department + vendor) % VENDOR_HEADS.length]}${VENDOR_TAILS[(vendor * 7 + department) % VENDOR_TAILS.length]} ${department * 1000 + vendor}`;
      const color = COLORS[Math.floor(random() * COLORS.length)]!;
      const material = MATERIALS[Math.floor(random() * MATERIALS.length)]!;
      const themeWord = THEME_WORDS[theme % THEME_WORDS.length]!;
      const adjective = ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]!;
      const price = typeBase[typeIndex]! * Math.exp(0.4 * normal(random));
      const onSale = memberships[i]!.includes(0) && random() < 0.6;
      const tags = [DEPARTMENTS[department]!, `${themeWord}-${theme}`, color, material];
      if (random() < 0.4) tags.push(EXTRA_TAGS[Math.floor(random() * EXTRA_TAGS.length)]!);
      const id = String(7_000_000_000_000 + i * 17);
      const title = `${adjective} ${color} ${material} ${noun} ${themeWord} ${DEPARTMENTS[department]} no. ${theme}`;
      this.products.push({
        id,
        platform: 'shopify',
        title: title[0]!.toUpperCase() + title.slice(1),
        handle: `${adjective}-${color}-${material}-${noun}-${i}`,
        image: `https://cdn.example.com/products/${id}.jpg`,
        price: price.toFixed(2),
        compareAtPrice: onSale ? (price * 1.25).toFixed(2) : null,
        vendor: vendorName,
        productType: `${DEPARTMENTS[department]} ${noun} type ${typeIndex % 8}`,
        tags,
        collections: memberships[i]!.map(collectionId),
        available: random() >= 0.03,
        repurchasable: department === DEPARTMENTS.indexOf('pantry') || department === DEPARTMENTS.indexOf('wellness'),
        updatedAt: this.startTime,
      });
    }

    // Customers: a pool sized to the events, visiting with Zipf-like frequency; two home themes each.
    const customers = Math.min(200_000, Math.max(500, Math.round(shape.events / 100)));
    this.customerIds = Array.from({ length: customers }, (_, c) => `cust_${(c * 2_654_435_761) % 4_294_967_291}`);
    this.customerSampler = new WeightedSampler(shuffled(customers, random), (c) => 1 / (c + 1) ** 0.8);
    this.homeThemes = Int32Array.from({ length: customers * 2 }, () => this.themeSampler.pick(random()));
    this.unknownIds = Array.from({ length: Math.max(10, Math.round(n / 50)) }, (_, k) => String(9_000_000_000_000 + k * 17));
  }

  /** A product of theme `t` by popularity (any product when the theme is empty). */
  fromTheme(t: number, r: number): number {
    return (this.themeSamplers[t] ?? this.productSampler).pick(r);
  }

  /** One of theme `t`'s related themes. */
  relatedTheme(t: number, r: number): number {
    return this.related[t * 3 + Math.floor(r * 3)]!;
  }

  /** The product indices in popularity order, most popular first. */
  byPopularity(): Int32Array {
    return Int32Array.from(this.weight.keys()).sort((a, b) => this.weight[b]! - this.weight[a]!);
  }

  /** The sale collection holding about half the catalog. */
  get bigCollection(): SyntheticCollection {
    return this.collections[0]!;
  }
}
