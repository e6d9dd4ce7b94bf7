// Short lists of distinct ids per shopper slot, kept only for the slots that have any (most
// shoppers never buy): a Map from slot to a growing Int32Array, the oldest id dropped past
// `perSlot`. Memory follows the ids held, bounded by slots × perSlot × 4 bytes.
import type { LruSlots } from './lru-slots.js';
import { bytesOf, fromBytes, grownTo } from './typed-arrays.js';

interface IdList {
  ids: Int32Array;
  size: number;
}

export class SlotIdLists {
  readonly #bySlot = new Map<number, IdList>();

  constructor(
    slots: LruSlots,
    readonly perSlot: number,
  ) {
    slots.onReuse((slot) => this.#bySlot.delete(slot));
  }

  /** Adds `id` as the slot's newest, unless it is already listed. */
  add(slot: number, id: number): void {
    let list = this.#bySlot.get(slot);
    if (list === undefined) this.#bySlot.set(slot, (list = { ids: new Int32Array(4), size: 0 }));
    for (let k = 0; k < list.size; k++) if (list.ids[k] === id) return;
    if (list.size === this.perSlot) {
      list.ids.copyWithin(0, 1, list.size);
      list.ids[list.size - 1] = id;
      return;
    }
    list.ids = grownTo(list.ids, list.size + 1, this.perSlot);
    list.ids[list.size++] = id;
  }

  /** Calls `each` with the slot's ids, oldest first. */
  forEach(slot: number, each: (id: number) => void): void {
    const list = slot < 0 ? undefined : this.#bySlot.get(slot);
    if (list === undefined) return;
    for (let k = 0; k < list.size; k++) each(list.ids[k]!);
  }

  /** [slot, ids (Int32Array bytes)] of every slot with a list: what a snapshot stores. */
  snapshot(): [number, Uint8Array][] {
    return Array.from(this.#bySlot, ([slot, list]) => [slot, bytesOf(list.ids.slice(0, list.size))]);
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: readonly [number, Uint8Array][]): void {
    for (const [slot, bytes] of snapshot) {
      const ids = fromBytes(Int32Array, bytes);
      this.#bySlot.set(slot, { ids, size: ids.length });
    }
  }
}
