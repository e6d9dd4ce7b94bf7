// Each shopper's affinity to the products they interacted with: type-weighted and time-decayed
// (forward decay against one landmark per shop, so values compare across shoppers and time),
// and the products they bought. Bounded: `perShopper` products each, the weakest dropped first.
import { ShopperMap, type ShopperKey } from './shopper-map.js';

export interface Affinity {
  /** Dense product id → weight·2^((t − landmark)/halfLife), summed. */
  readonly items: Map<number, number>;
  readonly purchased: Set<number>;
}

/** Past this exponent values would overflow; decay is re-based for that shopper. */
const MAX_EXPONENT = 600;

export class ShopperAffinities {
  readonly #shoppers: ShopperMap<Affinity & { landmark: number }>;
  readonly #perMs: number;

  constructor(
    readonly halfLifeMs: number,
    readonly perShopper: number,
    maxShoppers: number,
  ) {
    this.#perMs = 1 / halfLifeMs;
    this.#shoppers = new ShopperMap(maxShoppers, () => ({ items: new Map(), purchased: new Set(), landmark: Number.NaN }));
  }

  record(key: ShopperKey, item: number, weight: number, t: number, purchase: boolean): void {
    const affinity = this.#shoppers.touch(key);
    if (Number.isNaN(affinity.landmark)) affinity.landmark = t;
    let exponent = (t - affinity.landmark) * this.#perMs;
    if (exponent > MAX_EXPONENT) {
      const factor = 2 ** -exponent;
      for (const [id, value] of affinity.items) affinity.items.set(id, value * factor);
      affinity.landmark = t;
      exponent = 0;
    }
    if (purchase) affinity.purchased.add(item);
    affinity.items.set(item, (affinity.items.get(item) ?? 0) + weight * 2 ** exponent);
    if (affinity.items.size > this.perShopper) this.#dropWeakest(affinity.items);
  }

  snapshot(): [ShopperKey, [number, number][], number[], number][] {
    return [...this.#shoppers.entries()].map(([key, a]) => [key, [...a.items], [...a.purchased], a.landmark]);
  }

  restore(snapshot: readonly [ShopperKey, [number, number][], number[], number][]): void {
    for (const [key, items, purchased, landmark] of snapshot) {
      this.#shoppers.restore(key, { items: new Map(items), purchased: new Set(purchased), landmark });
    }
  }

  get(key: ShopperKey): Affinity | undefined {
    return this.#shoppers.get(key);
  }

  #dropWeakest(items: Map<number, number>): void {
    let weakest = -1;
    let min = Infinity;
    for (const [id, value] of items) if (value < min) (min = value), (weakest = id);
    items.delete(weakest);
  }
}
