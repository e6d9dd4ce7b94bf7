// Short lists of distinct ids per shopper slot, oldest first, the oldest dropped past `perSlot`:
// each list in a SlotBlocks block sized to what it holds, so the many shoppers who never buy cost
// nothing but their slot's bookkeeping, and memory is bounded by slots × perSlot × 4 bytes.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';

export type SlotIdListsSnapshot = SlotBlocksSnapshot;

export class SlotIdLists {
  readonly #blocks: SlotBlocks<[Int32Array]>;

  /** @param perSlot ids a list holds at most, 1 to 65,535 */
  constructor(
    slots: LruSlots,
    readonly perSlot: number,
  ) {
    this.#blocks = new SlotBlocks(slots, perSlot, [Int32Array]);
  }

  /** Adds `id` as the slot's newest, unless it is already listed. */
  add(slot: number, id: number): void {
    const blocks = this.#blocks;
    const size = blocks.size(slot);
    let start = blocks.start(slot);
    let [ids] = blocks.lanes;
    for (let k = start; k < start + size; k++) if (ids[k] === id) return;
    if (size === this.perSlot) {
      ids.copyWithin(start, start + 1, start + size);
      ids[start + size - 1] = id;
      return;
    }
    blocks.reserve(slot, size + 1);
    start = blocks.start(slot);
    [ids] = blocks.lanes;
    ids[start + size] = id;
    blocks.setSize(slot, size + 1);
  }

  /** Calls `each` with the slot's ids, oldest first. */
  forEach(slot: number, each: (id: number) => void): void {
    const size = this.#blocks.size(slot);
    const start = this.#blocks.start(slot);
    const [ids] = this.#blocks.lanes;
    for (let k = start; k < start + size; k++) each(ids[k]!);
  }

  /** Empties the slot's list. */
  clear(slot: number): void {
    this.#blocks.clear(slot);
  }

  /** The lists as views of the live arrays (copy them before the next add): what a snapshot stores. */
  snapshot(): SlotIdListsSnapshot {
    return this.#blocks.snapshot();
  }

  /** Restores a snapshot taken with the same perSlot (restore the slots first). */
  restore(snapshot: SlotIdListsSnapshot): void {
    this.#blocks.restore(snapshot);
  }
}
