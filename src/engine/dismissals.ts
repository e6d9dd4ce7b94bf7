// Products a shopper dismissed, hidden from that shopper for `ttlMs` after the dismissal. Few
// shoppers dismiss anything: a small Map per slot that has dismissals, none for the others.
import type { LruSlots } from './lru-slots.js';
import { bytesOf, fromBytes } from './typed-arrays.js';

/** Dismissals kept per shopper; the oldest go first past this. */
const MAX_PER_SHOPPER = 200;

export class Dismissals {
  /** Per slot: dense id → time of its latest dismissal, in the order recorded. */
  readonly #bySlot = new Map<number, Map<number, number>>();

  constructor(
    readonly slots: LruSlots,
    readonly ttlMs: number,
  ) {
    slots.onReuse((slot) => this.#bySlot.delete(slot));
  }

  record(slot: number, id: number, t: number): void {
    let dismissed = this.#bySlot.get(slot);
    if (dismissed === undefined) this.#bySlot.set(slot, (dismissed = new Map()));
    const previous = dismissed.get(id);
    if (previous !== undefined && previous >= t) return;
    dismissed.delete(id);
    dismissed.set(id, t);
    if (dismissed.size > MAX_PER_SHOPPER) dismissed.delete(dismissed.keys().next().value!);
  }

  /** Calls `hide` with each product the slot's shopper dismissed within the ttl before `now`. */
  hiddenFor(slot: number, now: number, hide: (id: number) => void): void {
    const dismissed = slot < 0 ? undefined : this.#bySlot.get(slot);
    if (dismissed === undefined) return;
    for (const [id, t] of dismissed) if (now - t < this.ttlMs) hide(id);
  }

  /** What a snapshot stores, as one flat list of numbers: per slot with dismissals, slot, count, then (id, time) × count in the order recorded. */
  snapshot(): Uint8Array {
    let length = 0;
    for (const dismissed of this.#bySlot.values()) length += 2 + 2 * dismissed.size;
    const flat = new Float64Array(length);
    let k = 0;
    for (const [slot, dismissed] of this.#bySlot) {
      flat[k++] = slot;
      flat[k++] = dismissed.size;
      for (const [id, t] of dismissed) {
        flat[k++] = id;
        flat[k++] = t;
      }
    }
    return bytesOf(flat);
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: Uint8Array): void {
    const flat = fromBytes(Float64Array, snapshot);
    for (let k = 0; k < flat.length; ) {
      const slot = flat[k++]!;
      const dismissed = new Map<number, number>();
      for (let end = k + 2 * flat[k++]!; k < end; k += 2) dismissed.set(flat[k]!, flat[k + 1]!);
      this.#bySlot.set(slot, dismissed);
    }
  }
}
