// Each shopper's recently viewed products: distinct, newest first, at most `perShopper` of them,
// per slot of the shopper table, in a block sized to the views held (SlotBlocks: 12 bytes a view).
// Events may arrive out of time order (imports), so an entry is placed by its time.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';

export type RecentViewsSnapshot = SlotBlocksSnapshot;

export class RecentViews {
  /** Per slot: dense product ids, newest first, and the epoch ms of each one's latest view. */
  readonly #blocks: SlotBlocks<[Int32Array, Float64Array]>;

  /** @param perShopper at most 255 */
  constructor(
    readonly slots: LruSlots,
    readonly perShopper: number,
  ) {
    if (perShopper < 1 || perShopper > 255) throw new RangeError('recent views per shopper must be 1-255');
    this.#blocks = new SlotBlocks(slots, perShopper, [Int32Array, Float64Array]);
  }

  record(slot: number, id: number, t: number): void {
    const blocks = this.#blocks;
    let start = blocks.start(slot);
    let ids = blocks.lanes[0];
    let times = blocks.lanes[1];
    let size = blocks.size(slot);
    for (let k = 0; k < size; k++) {
      if (ids[start + k] !== id) continue;
      // At an equal time the later arrival is the newer view, as for a first view below.
      if (times[start + k]! > t) return;
      blocks.removeAt(slot, k);
      size--;
      break;
    }
    let at = 0;
    while (at < size && times[start + at]! > t) at++;
    if (at >= this.perShopper) return; // older than every view kept (a removed repeat stays removed)
    const end = Math.min(size, this.perShopper - 1);
    blocks.reserve(slot, end + 1);
    start = blocks.start(slot);
    ids = blocks.lanes[0];
    times = blocks.lanes[1];
    ids.copyWithin(start + at + 1, start + at, start + end);
    times.copyWithin(start + at + 1, start + at, start + end);
    ids[start + at] = id;
    times[start + at] = t;
    blocks.setSize(slot, end + 1);
  }

  /** Products in the slot's history. */
  size(slot: number): number {
    return this.#blocks.size(slot);
  }

  /** The slot's history is `ids[start(slot) + k]` viewed at `times[start(slot) + k]`, newest first, k < size(slot). */
  start(slot: number): number {
    return this.#blocks.start(slot);
  }

  get ids(): Int32Array {
    return this.#blocks.lanes[0];
  }

  get times(): Float64Array {
    return this.#blocks.lanes[1];
  }

  /** Forgets the slot's views (an erasure). */
  clear(slot: number): void {
    this.#blocks.clear(slot);
  }

  snapshot(): RecentViewsSnapshot {
    return this.#blocks.snapshot();
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: RecentViewsSnapshot): void {
    this.#blocks.restore(snapshot);
  }
}
