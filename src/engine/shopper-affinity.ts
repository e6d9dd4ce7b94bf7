// Each shopper's affinity to the products they interacted with: type-weighted and time-decayed
// (forward decay against one landmark per shopper, re-based when far), and the products they
// bought. Per shopper slot: `perShopper` (product, value) entries in the order they came, the
// weakest dropped first when full, and the last `purchasesPerShopper` distinct purchases (kept
// only for shoppers who bought). Values are float32 (ample for ranking); memory is
// slots × 8·perShopper bytes plus 4 bytes per purchase held.
import type { LruSlots } from './lru-slots.js';
import { SlotIdLists } from './slot-id-lists.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

/** Past this exponent of 2 a shopper's values are re-based (float32 reaches 2^127). */
const MAX_EXPONENT = 64;

export interface AffinitySnapshot {
  items: Uint8Array;
  values: Uint8Array;
  fill: Uint8Array;
  landmarks: Uint8Array;
  purchases: [number, Uint8Array][];
}

export class ShopperAffinities {
  readonly #perMs: number;
  #items = new Int32Array(0);
  #values = new Float32Array(0);
  #fill = new Uint8Array(0);
  /** Per slot: epoch ms the values are relative to (NaN before the first event). */
  #landmarks = new Float64Array(0);
  readonly #purchases: SlotIdLists;

  /** @param perShopper at most 255 */
  constructor(
    readonly slots: LruSlots,
    readonly halfLifeMs: number,
    readonly perShopper: number,
    purchasesPerShopper: number,
  ) {
    if (perShopper < 1 || perShopper > 255) throw new RangeError('affinities per shopper must be 1-255');
    this.#perMs = 1 / halfLifeMs;
    this.#purchases = new SlotIdLists(slots, purchasesPerShopper);
    slots.onReuse((slot) => {
      if (slot < this.#fill.length) this.#fill[slot] = 0;
    });
  }

  record(slot: number, item: number, weight: number, t: number, purchase: boolean): void {
    this.#ensure(slot);
    const start = slot * this.perShopper;
    let size = this.#fill[slot]!;
    if (size === 0) this.#landmarks[slot] = t;
    let exponent = (t - this.#landmarks[slot]!) * this.#perMs;
    if (exponent > MAX_EXPONENT) {
      const factor = 2 ** -exponent;
      for (let k = 0; k < size; k++) this.#values[start + k] *= factor;
      this.#landmarks[slot] = t;
      exponent = 0;
    }
    if (purchase) this.#purchases.add(slot, item);
    const value = weight * 2 ** exponent;
    const values = this.#values;
    for (let k = 0; k < size; k++) {
      if (this.#items[start + k] === item) {
        values[start + k] += value;
        return;
      }
    }
    if (size === this.perShopper) {
      // Full: the weakest goes (the first of equals), the newcomer too when it is weaker still.
      let weakest = 0;
      for (let k = 1; k < size; k++) if (values[start + k]! < values[start + weakest]!) weakest = k;
      if (Math.fround(value) < values[start + weakest]!) return;
      this.#items.copyWithin(start + weakest, start + weakest + 1, start + size);
      values.copyWithin(start + weakest, start + weakest + 1, start + size);
      size--;
    }
    this.#items[start + size] = item;
    values[start + size] = value;
    this.#fill[slot] = size + 1;
  }

  /** Products with an affinity in the slot. */
  size(slot: number): number {
    return slot >= 0 && slot < this.#fill.length ? this.#fill[slot]! : 0;
  }

  /** The slot's products are `items[start(slot) + k]`, their values `values[start(slot) + k]`, k < size(slot). */
  start(slot: number): number {
    return slot * this.perShopper;
  }

  get items(): Int32Array {
    return this.#items;
  }

  get values(): Float32Array {
    return this.#values;
  }

  /** Calls `into.add` with each product the slot's shopper bought (the most recent purchasesPerShopper). */
  purchasesOf(slot: number, into: (item: number) => void): void {
    this.#purchases.forEach(slot, into);
  }

  snapshot(): AffinitySnapshot {
    return {
      items: bytesOf(this.#items.slice()),
      values: bytesOf(this.#values.slice()),
      fill: this.#fill.slice(),
      landmarks: bytesOf(this.#landmarks.slice()),
      purchases: this.#purchases.snapshot(),
    };
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: AffinitySnapshot): void {
    this.#items = fromBytes(Int32Array, snapshot.items);
    this.#values = fromBytes(Float32Array, snapshot.values);
    this.#fill = snapshot.fill.slice();
    this.#landmarks = fromBytes(Float64Array, snapshot.landmarks);
    this.#purchases.restore(snapshot.purchases);
  }

  #ensure(slot: number): void {
    if (slot < this.#fill.length) return;
    const max = this.slots.maxSlots;
    this.#fill = grownTo(this.#fill, slot + 1, max);
    const slots = this.#fill.length;
    this.#landmarks = grownTo(this.#landmarks, slots);
    this.#items = grownTo(this.#items, slots * this.perShopper);
    this.#values = grownTo(this.#values, slots * this.perShopper);
  }
}
