// Each shopper's recently viewed products: distinct, newest first, at most `perShopper` of them,
// per slot of the shopper table in typed arrays (slots × 12·perShopper bytes). Events may arrive
// out of time order (imports), so an entry is placed by its time.
import type { LruSlots } from './lru-slots.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

export interface RecentViewsSnapshot {
  ids: Uint8Array;
  times: Uint8Array;
  fill: Uint8Array;
}

export class RecentViews {
  /** Per slot: dense product ids, newest first, and the epoch ms of each one's latest view. */
  #ids = new Int32Array(0);
  #times = new Float64Array(0);
  #fill = new Uint8Array(0);

  /** @param perShopper at most 255 */
  constructor(
    readonly slots: LruSlots,
    readonly perShopper: number,
  ) {
    if (perShopper < 1 || perShopper > 255) throw new RangeError('recent views per shopper must be 1-255');
    slots.onReuse((slot) => {
      if (slot < this.#fill.length) this.#fill[slot] = 0;
    });
  }

  record(slot: number, id: number, t: number): void {
    this.#ensure(slot);
    const start = slot * this.perShopper;
    const ids = this.#ids;
    const times = this.#times;
    let size = this.#fill[slot]!;
    for (let k = 0; k < size; k++) {
      if (ids[start + k] !== id) continue;
      // At an equal time the later arrival is the newer view, as for a first view below.
      if (times[start + k]! > t) return;
      ids.copyWithin(start + k, start + k + 1, start + size);
      times.copyWithin(start + k, start + k + 1, start + size);
      size--;
      break;
    }
    let at = 0;
    while (at < size && times[start + at]! > t) at++;
    if (at >= this.perShopper) {
      this.#fill[slot] = size;
      return;
    }
    const end = Math.min(size, this.perShopper - 1);
    ids.copyWithin(start + at + 1, start + at, start + end);
    times.copyWithin(start + at + 1, start + at, start + end);
    ids[start + at] = id;
    times[start + at] = t;
    this.#fill[slot] = end + 1;
  }

  /** Products in the slot's history. */
  size(slot: number): number {
    return slot >= 0 && slot < this.#fill.length ? this.#fill[slot]! : 0;
  }

  /** The slot's history is `ids[start(slot) + k]` viewed at `times[start(slot) + k]`, newest first, k < size(slot). */
  start(slot: number): number {
    return slot * this.perShopper;
  }

  get ids(): Int32Array {
    return this.#ids;
  }

  get times(): Float64Array {
    return this.#times;
  }

  snapshot(): RecentViewsSnapshot {
    return { ids: bytesOf(this.#ids.slice()), times: bytesOf(this.#times.slice()), fill: this.#fill.slice() };
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: RecentViewsSnapshot): void {
    this.#ids = fromBytes(Int32Array, snapshot.ids);
    this.#times = fromBytes(Float64Array, snapshot.times);
    this.#fill = snapshot.fill.slice();
  }

  #ensure(slot: number): void {
    if (slot < this.#fill.length) return;
    this.#fill = grownTo(this.#fill, slot + 1, this.slots.maxSlots);
    this.#ids = grownTo(this.#ids, this.#fill.length * this.perShopper);
    this.#times = grownTo(this.#times, this.#fill.length * this.perShopper);
  }
}
