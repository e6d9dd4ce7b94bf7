// How much of each product's popularity a shopper has counted in the current window (a UTC day):
// trending, collection-popular, sales momentum and the co-occurrence models count a shopper's
// events on one product up to `cap` weight per window, so 200 views from one session weigh less
// than one view each from 20 sessions. Per shopper slot: the window its tally counts in, and the
// products counted in it (at most TALLY_PRODUCTS, the first counted dropped first when full), each
// with the weight counted, in a block sized to the entries held (SlotBlocks: 8 bytes an entry).
// The first event of a later window starts the slot's tally afresh, so it never holds more than
// one day's products; an event of an earlier window (an import out of order) counts against the
// slot's. O(TALLY_PRODUCTS) per event and bounded memory, whatever the events. A client cycling
// through more than TALLY_PRODUCTS products gets a product counted again only after pushing as
// many others through: every one of them rises with it, none stands out.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

export const TALLY_WINDOW_MS = 86_400_000;
/** Products tallied per shopper and window: more than the pairing window (30), so cycling through it re-counts nothing. */
export const TALLY_PRODUCTS = 32;

export interface ShopperTallySnapshot {
  blocks: SlotBlocksSnapshot;
  /** Per slot: its window (Int32Array bytes). */
  windows: Uint8Array;
}

export class ShopperTally {
  /** Per slot: dense product ids and the weight counted in the slot's window. */
  readonly #blocks: SlotBlocks<[Int32Array, Float32Array]>;
  /** Per slot: the window (epoch ms / TALLY_WINDOW_MS) its entries count in; meaningless while it holds none. */
  #windows = new Int32Array(0);

  /** @param cap weight counted per shopper, product and window */
  constructor(
    readonly slots: LruSlots,
    readonly cap: number,
  ) {
    this.#blocks = new SlotBlocks(slots, TALLY_PRODUCTS, [Int32Array, Float32Array]);
  }

  /**
   * Counts `weight` of the shopper's event on `id` at event time t against the window's cap;
   * returns the part that still counts (0 once the cap is reached).
   */
  admit(slot: number, id: number, weight: number, t: number): number {
    const blocks = this.#blocks;
    const window = Math.floor(t / TALLY_WINDOW_MS);
    if (slot >= this.#windows.length) this.#windows = grownTo(this.#windows, slot + 1, this.slots.maxSlots);
    let size = blocks.size(slot);
    if (size === 0 || window > this.#windows[slot]!) {
      if (size > 0) blocks.setSize(slot, (size = 0));
      this.#windows[slot] = window;
    }
    let start = blocks.start(slot);
    const ids = blocks.lanes[0];
    for (let k = 0; k < size; k++) {
      if (ids[start + k] !== id) continue;
      const counted = blocks.lanes[1];
      const admitted = Math.max(0, Math.min(weight, this.cap - counted[start + k]!));
      counted[start + k] += admitted;
      return admitted;
    }
    if (size === TALLY_PRODUCTS) {
      blocks.removeAt(slot, 0);
      size--;
    } else {
      blocks.reserve(slot, size + 1);
      start = blocks.start(slot);
    }
    const admitted = Math.min(weight, this.cap);
    blocks.lanes[0][start + size] = id;
    blocks.lanes[1][start + size] = admitted;
    blocks.setSize(slot, size + 1);
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
    return { blocks: this.#blocks.snapshot(), windows: bytesOf(this.#windows) };
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: ShopperTallySnapshot): void {
    this.#blocks.restore(snapshot.blocks);
    this.#windows = fromBytes(Int32Array, snapshot.windows);
  }
}
