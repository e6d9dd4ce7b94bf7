// Groups of items by slot of an LruSlots table — an order, a session's cart, a shopper's recent
// products — kept in insertion order, at most `capacity` distinct items each. The slots (and so
// the bound on groups) may be shared with other per-shopper state. Memory: slots × capacity × 4 bytes.
import type { LruSlots } from './lru-slots.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

export interface GroupTableSnapshot {
  /** Per slot: items (Int32Array bytes, `capacity` per slot) and their number. */
  items: Uint8Array;
  fill: Uint8Array;
}

export class GroupTable {
  #items = new Int32Array(0);
  #fill = new Uint8Array(0);

  /** @param capacity items per group, at most 255 */
  constructor(
    readonly slots: LruSlots,
    readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1 || capacity > 255) throw new RangeError(`group capacity must be 1-255, got ${capacity}`);
    slots.onReuse((slot) => {
      if (slot < this.#fill.length) this.#fill[slot] = 0;
    });
  }

  size(slot: number): number {
    return slot < this.#fill.length ? this.#fill[slot]! : 0;
  }

  /** The group's items are `items[start(slot) .. start(slot) + size(slot))`, oldest first. */
  start(slot: number): number {
    return slot * this.capacity;
  }

  /** Valid until the next push (a grow replaces it). */
  get items(): Int32Array {
    return this.#items;
  }

  has(slot: number, item: number): boolean {
    const start = slot * this.capacity;
    const end = start + this.size(slot);
    for (let i = start; i < end; i++) if (this.#items[i] === item) return true;
    return false;
  }

  /** Appends an item to a group that is not full. */
  push(slot: number, item: number): void {
    if (slot >= this.#fill.length) {
      this.#fill = grownTo(this.#fill, slot + 1, this.slots.maxSlots);
      this.#items = grownTo(this.#items, this.#fill.length * this.capacity);
    }
    const filled = this.#fill[slot]!;
    this.#items[slot * this.capacity + filled] = item;
    this.#fill[slot] = filled + 1;
  }

  /** Drops the group's oldest item. */
  shift(slot: number): void {
    const start = slot * this.capacity;
    const filled = this.#fill[slot]!;
    this.#items.copyWithin(start, start + 1, start + filled);
    this.#fill[slot] = filled - 1;
  }

  snapshot(): GroupTableSnapshot {
    return { items: bytesOf(this.#items.slice(0, this.#fill.length * this.capacity)), fill: this.#fill.slice() };
  }

  /** Restores the groups of a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: GroupTableSnapshot): void {
    this.#fill = snapshot.fill.slice();
    this.#items = fromBytes(Int32Array, snapshot.items);
  }
}
