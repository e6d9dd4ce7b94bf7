// Groups of items by slot of an LruSlots table — an order, a session's cart, a shopper's recent
// products — kept in insertion order, at most `capacity` distinct items each. The slots (and so
// the bound on groups) may be shared with other per-shopper state. Each group lives in a block
// sized to the items it holds (SlotBlocks): memory follows the items held, not slots × capacity.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';

export type GroupTableSnapshot = SlotBlocksSnapshot;

export class GroupTable {
  readonly #blocks: SlotBlocks<[Int32Array]>;

  /** @param capacity items per group, at most 255 */
  constructor(
    readonly slots: LruSlots,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 255) throw new RangeError(`group capacity must be 1-255, got ${capacity}`);
    this.#blocks = new SlotBlocks(slots, capacity, [Int32Array]);
  }

  size(slot: number): number {
    return this.#blocks.size(slot);
  }

  /** The group's items are `items[start(slot) .. start(slot) + size(slot))`, oldest first. */
  start(slot: number): number {
    return this.#blocks.start(slot);
  }

  /** Valid until the next push (a grow replaces it). */
  get items(): Int32Array {
    return this.#blocks.lanes[0];
  }

  has(slot: number, item: number): boolean {
    const start = this.start(slot);
    const end = start + this.size(slot);
    const items = this.items;
    for (let i = start; i < end; i++) if (items[i] === item) return true;
    return false;
  }

  /** Appends an item to a group that is not full. */
  push(slot: number, item: number): void {
    const filled = this.size(slot);
    this.#blocks.reserve(slot, filled + 1);
    this.items[this.start(slot) + filled] = item;
    this.#blocks.setSize(slot, filled + 1);
  }

  /** Drops the group's oldest item. */
  shift(slot: number): void {
    this.#blocks.removeAt(slot, 0);
  }

  /** Empties the group (an erasure). */
  clear(slot: number): void {
    this.#blocks.clear(slot);
  }

  snapshot(): GroupTableSnapshot {
    return this.#blocks.snapshot();
  }

  /** Restores the groups of a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: GroupTableSnapshot): void {
    this.#blocks.restore(snapshot);
  }
}
