// Each shopper's recently viewed products: distinct, newest first, at most `perShopper` of them.
// Events may arrive out of time order (imports), so an entry is placed by its time.
import { ShopperMap, type ShopperKey } from './shopper-map.js';

export interface ViewHistory {
  /** Dense product ids, newest first. */
  readonly ids: number[];
  /** Epoch ms of each id's latest view, same order. */
  readonly times: number[];
}

export class RecentViews {
  readonly #histories: ShopperMap<ViewHistory>;

  constructor(
    readonly perShopper: number,
    maxShoppers: number,
  ) {
    this.#histories = new ShopperMap(maxShoppers, () => ({ ids: [], times: [] }));
  }

  record(key: ShopperKey, id: number, t: number): void {
    const { ids, times } = this.#histories.touch(key);
    const existing = ids.indexOf(id);
    if (existing !== -1) {
      // At an equal time the later arrival is the newer view, as for a first view below.
      if (times[existing]! > t) return;
      ids.splice(existing, 1);
      times.splice(existing, 1);
    }
    let at = 0;
    while (at < times.length && times[at]! > t) at++;
    if (at >= this.perShopper) return;
    ids.splice(at, 0, id);
    times.splice(at, 0, t);
    if (ids.length > this.perShopper) {
      ids.length = this.perShopper;
      times.length = this.perShopper;
    }
  }

  get(key: ShopperKey): ViewHistory | undefined {
    return this.#histories.get(key);
  }

  snapshot(): [ShopperKey, number[], number[]][] {
    return [...this.#histories.entries()].map(([key, h]) => [key, h.ids, h.times]);
  }

  restore(snapshot: readonly [ShopperKey, number[], number[]][]): void {
    for (const [key, ids, times] of snapshot) this.#histories.restore(key, { ids: [...ids], times: [...times] });
  }

  get shopperCount(): number {
    return this.#histories.size;
  }
}
