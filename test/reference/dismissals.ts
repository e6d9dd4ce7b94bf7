// Reference for engine/dismissals.ts, in the plainest form (and the engine's own until the slot
// blocks): per slot a Map of product id → time of its latest dismissal, in the order recorded.
// Its snapshot is the flat layout snapshots stored before the blocks, which the engine still restores.
import type { LruSlots } from '../../src/engine/lru-slots.js';

export class ReferenceDismissals {
  readonly bySlot = new Map<number, Map<number, number>>();

  constructor(
    slots: LruSlots,
    readonly ttlMs: number,
    readonly perShopper: number,
  ) {
    slots.onReuse((slot) => this.bySlot.delete(slot));
  }

  record(slot: number, id: number, t: number): void {
    let dismissed = this.bySlot.get(slot);
    if (dismissed === undefined) this.bySlot.set(slot, (dismissed = new Map()));
    const previous = dismissed.get(id);
    if (previous !== undefined && previous >= t) return;
    dismissed.delete(id);
    dismissed.set(id, t);
    if (dismissed.size > this.perShopper) dismissed.delete(dismissed.keys().next().value!);
  }

  hidden(slot: number, now: number): number[] {
    return [...(this.bySlot.get(slot) ?? [])].filter(([, t]) => now - t < this.ttlMs).map(([id]) => id);
  }

  /** Per slot with dismissals: slot, count, then (id, time) × count, as Float64Array bytes. */
  flatSnapshot(): Uint8Array {
    const flat = [...this.bySlot].flatMap(([slot, dismissed]) => [slot, dismissed.size, ...[...dismissed].flat()]);
    return new Uint8Array(Float64Array.from(flat).buffer);
  }
}
