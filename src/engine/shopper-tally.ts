// How much of each product's popularity a shopper has counted in the current window (a UTC day):
// trending, collection-popular, sales momentum and the co-occurrence models count a shopper's
// events on one product up to `cap` weight per window, so 200 views from one session weigh less
// than one view each from 20 sessions. Per shopper slot: its last TALLY_PRODUCTS products, each
// with its window and the weight counted in it, in a block sized to the entries held (SlotBlocks:
// 12 bytes an entry), the entry of the oldest window dropped first when full. O(TALLY_PRODUCTS)
// per event and bounded memory, whatever the events. A client cycling through more than
// TALLY_PRODUCTS products gets a product counted again only after pushing as many others through:
// every one of them rises with it, none stands out.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';

export const TALLY_WINDOW_MS = 86_400_000;
/** Products tallied per shopper. */
export const TALLY_PRODUCTS = 32;

export type ShopperTallySnapshot = SlotBlocksSnapshot;

export class ShopperTally {
  /** Per slot: dense product ids, their window (epoch ms / TALLY_WINDOW_MS) and the weight counted in it. */
  readonly #blocks: SlotBlocks<[Int32Array, Int32Array, Float32Array]>;

  /** @param cap weight counted per shopper, product and window */
  constructor(
    readonly slots: LruSlots,
    readonly cap: number,
  ) {
    this.#blocks = new SlotBlocks(slots, TALLY_PRODUCTS, [Int32Array, Int32Array, Float32Array]);
  }

  /**
   * Counts `weight` of the shopper's event on `id` at event time t against the window's cap;
   * returns the part that still counts (0 once the cap is reached). An event of an earlier window
   * than the tallied one (an import out of order) counts against the tallied window.
   */
  admit(slot: number, id: number, weight: number, t: number): number {
    const blocks = this.#blocks;
    const window = Math.floor(t / TALLY_WINDOW_MS);
    let start = blocks.start(slot);
    const size = blocks.size(slot);
    for (let k = 0; k < size; k++) {
      if (blocks.lanes[0][start + k] !== id) continue;
      const windows = blocks.lanes[1];
      const counted = blocks.lanes[2];
      if (windows[start + k]! < window) {
        windows[start + k] = window;
        counted[start + k] = 0;
      }
      const admitted = Math.max(0, Math.min(weight, this.cap - counted[start + k]!));
      counted[start + k] += admitted;
      return admitted;
    }
    if (size === TALLY_PRODUCTS) {
      // Full: the entry of the oldest window goes (the first of equals: the longest held).
      let oldest = 0;
      for (let k = 1; k < size; k++) if (blocks.lanes[1][start + k]! < blocks.lanes[1][start + oldest]!) oldest = k;
      blocks.removeAt(slot, oldest);
    } else {
      blocks.reserve(slot, size + 1);
      start = blocks.start(slot);
    }
    const at = blocks.size(slot);
    const admitted = Math.min(weight, this.cap);
    blocks.lanes[0][start + at] = id;
    blocks.lanes[1][start + at] = window;
    blocks.lanes[2][start + at] = admitted;
    blocks.setSize(slot, at + 1);
    return admitted;
  }

  /** Products tallied for the slot. */
  size(slot: number): number {
    return this.#blocks.size(slot);
  }

  /** Forgets the slot's tally (an erasure). */
  clear(slot: number): void {
    this.#blocks.clear(slot);
  }

  snapshot(): ShopperTallySnapshot {
    return this.#blocks.snapshot();
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: ShopperTallySnapshot): void {
    this.#blocks.restore(snapshot);
  }
}
