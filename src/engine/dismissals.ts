// Products a shopper dismissed, hidden from that shopper for `ttlMs` after the dismissal. Few
// shoppers dismiss anything: a small Map per slot that has dismissals, none for the others.
import type { LruSlots } from './lru-slots.js';

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

  /** [slot, [id, time][]] of every slot with dismissals: what a snapshot stores. */
  snapshot(): [number, [number, number][]][] {
    return Array.from(this.#bySlot, ([slot, map]) => [slot, [...map]]);
  }

  /** Restores a snapshot taken with the same slots (restore the slots first). */
  restore(snapshot: readonly [number, [number, number][]][]): void {
    for (const [slot, entries] of snapshot) this.#bySlot.set(slot, new Map(entries));
  }
}
