// Each shopper's affinity to the products they interacted with: type-weighted and time-decayed
// (forward decay against one landmark per shopper, re-based when far), and the products they
// bought. Per shopper slot: up to `perShopper` (product, value) entries in the order they came,
// the weakest dropped first when full, in a block sized to the entries held (SlotBlocks), and the
// last `purchasesPerShopper` distinct purchases (kept only for shoppers who bought). Each entry also
// keeps its undecayed total, what the shopper's history weighs with recency off. Values are
// float32 (ample for ranking); memory is 12 bytes per entry held plus 4 bytes per purchase held.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';
import { SlotIdLists, type SlotIdListsSnapshot } from './slot-id-lists.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

/** Past this exponent of 2 a shopper's values are re-based (float32 reaches 2^127). */
const MAX_EXPONENT = 64;

export interface AffinitySnapshot {
  entries: SlotBlocksSnapshot;
  landmarks: Uint8Array;
  purchases: SlotIdListsSnapshot;
}

export class ShopperAffinities {
  readonly #perMs: number;
  /** Per slot: products, their decayed values and their undecayed totals. */
  readonly #entries: SlotBlocks<[Int32Array, Float32Array, Float32Array]>;
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
    this.#entries = new SlotBlocks(slots, perShopper, [Int32Array, Float32Array, Float32Array]);
    this.#purchases = new SlotIdLists(slots, purchasesPerShopper);
  }

  record(slot: number, item: number, weight: number, t: number, purchase: boolean): void {
    if (slot >= this.#landmarks.length) this.#landmarks = grownTo(this.#landmarks, slot + 1, this.slots.maxSlots);
    const entries = this.#entries;
    let start = entries.start(slot);
    let items = entries.lanes[0];
    let values = entries.lanes[1];
    let totals = entries.lanes[2];
    let size = entries.size(slot);
    if (size === 0) this.#landmarks[slot] = t;
    let exponent = (t - this.#landmarks[slot]!) * this.#perMs;
    if (exponent > MAX_EXPONENT) {
      const factor = 2 ** -exponent;
      for (let k = 0; k < size; k++) values[start + k] *= factor;
      this.#landmarks[slot] = t;
      exponent = 0;
    }
    if (purchase) this.#purchases.add(slot, item);
    const value = weight * 2 ** exponent;
    for (let k = 0; k < size; k++) {
      if (items[start + k] === item) {
        values[start + k] += value;
        totals[start + k] += weight;
        return;
      }
    }
    if (size === this.perShopper) {
      // Full: the weakest goes (the first of equals), the newcomer too when it is weaker still.
      let weakest = 0;
      for (let k = 1; k < size; k++) if (values[start + k]! < values[start + weakest]!) weakest = k;
      if (Math.fround(value) < values[start + weakest]!) return;
      entries.removeAt(slot, weakest);
      size--;
    } else {
      entries.reserve(slot, size + 1);
      start = entries.start(slot);
      items = entries.lanes[0];
      values = entries.lanes[1];
      totals = entries.lanes[2];
    }
    items[start + size] = item;
    values[start + size] = value;
    totals[start + size] = weight;
    entries.setSize(slot, size + 1);
  }

  /** Products with an affinity in the slot. */
  size(slot: number): number {
    return this.#entries.size(slot);
  }

  /** The slot's products are `items[start(slot) + k]`, their values `values[start(slot) + k]`, k < size(slot). */
  start(slot: number): number {
    return this.#entries.start(slot);
  }

  get items(): Int32Array {
    return this.#entries.lanes[0];
  }

  /** Decayed values: comparable within one slot only (each slot has its own landmark). */
  get values(): Float32Array {
    return this.#entries.lanes[1];
  }

  /** Undecayed totals of the same entries (the weights of the events behind each, summed). */
  get totals(): Float32Array {
    return this.#entries.lanes[2];
  }

  /** Epoch ms the slot's values are relative to: a value v of weight w was recorded at landmark + halfLife × log2(v / w), less its decay since. */
  landmark(slot: number): number {
    return slot < this.#landmarks.length ? this.#landmarks[slot]! : NaN;
  }

  /** Calls `into.add` with each product the slot's shopper bought (the most recent purchasesPerShopper). */
  purchasesOf(slot: number, into: (item: number) => void): void {
    this.#purchases.forEach(slot, into);
  }

  /** Forgets the slot's affinities and purchases (an erasure). */
  clear(slot: number): void {
    this.#entries.clear(slot);
    this.#purchases.clear(slot);
  }

  snapshot(): AffinitySnapshot {
    return {
      entries: this.#entries.snapshot(),
      landmarks: bytesOf(this.#landmarks.subarray(0, this.slots.size)),
      purchases: this.#purchases.snapshot(),
    };
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: AffinitySnapshot): void {
    // Taken before entries kept their totals: each starts from its stored value (its events at
    // the shopper's landmark, at least their weights), the nearest the snapshot holds.
    const lanes = snapshot.entries.lanes;
    this.#entries.restore(lanes.length === 2 ? { ...snapshot.entries, lanes: [lanes[0]!, lanes[1]!, lanes[1]!.slice()] } : snapshot.entries);
    this.#landmarks = fromBytes(Float64Array, snapshot.landmarks);
    this.#purchases.restore(snapshot.purchases);
  }
}
