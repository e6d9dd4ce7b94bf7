// A recency order over dense slots: each slot's older and newer neighbour in two Int32Arrays
// (-1 at the ends), so marking a slot newest, unlinking it and finding the oldest are O(1) with no
// allocation. The order behind LruSlots (shoppers, baskets) and PendingEvents (unknown product ids).
import { grownTo } from './typed-arrays.js';

export class RecencyList {
  #older = new Int32Array(0);
  #newer = new Int32Array(0);
  #oldest = -1;
  #newest = -1;

  /** @param maxSlots slots the list ever holds (its arrays never grow past it) */
  constructor(readonly maxSlots: number) {}

  /** The least recently marked slot, -1 when none is linked. */
  get oldest(): number {
    return this.#oldest;
  }

  /** The most recently marked slot, -1 when none is linked. */
  get newest(): number {
    return this.#newest;
  }

  /** The slot marked just after `slot`, -1 when it is the newest. */
  newerThan(slot: number): number {
    return this.#newer[slot]!;
  }

  /** Makes room for slots 0 … length − 1. */
  reserve(length: number): void {
    this.#older = grownTo(this.#older, length, this.maxSlots);
    this.#newer = grownTo(this.#newer, length, this.maxSlots);
  }

  /** Marks a linked slot as the most recent. */
  touch(slot: number): void {
    if (slot === this.#newest) return;
    this.unlink(slot);
    this.linkNewest(slot);
  }

  /** Takes a linked slot out of the order. */
  unlink(slot: number): void {
    const older = this.#older[slot]!;
    const newer = this.#newer[slot]!;
    if (older === -1) this.#oldest = newer;
    else this.#newer[older] = newer;
    if (newer === -1) this.#newest = older;
    else this.#older[newer] = older;
  }

  /** Links a slot that is not in the order as the most recent. */
  linkNewest(slot: number): void {
    this.#older[slot] = this.#newest;
    this.#newer[slot] = -1;
    if (this.#newest === -1) this.#oldest = slot;
    else this.#newer[this.#newest] = slot;
    this.#newest = slot;
  }
}
