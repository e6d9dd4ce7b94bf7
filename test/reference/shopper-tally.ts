// Reference for engine/shopper-tally.ts, in the plainest form: per slot an array of
// { id, window, counted } in the order added, the entry of the oldest window (the first of equals)
// dropped when it holds TALLY_PRODUCTS.
import type { LruSlots } from '../../src/engine/lru-slots.js';
import { TALLY_PRODUCTS, TALLY_WINDOW_MS } from '../../src/engine/shopper-tally.js';

interface Entry {
  id: number;
  window: number;
  counted: number;
}

export class ReferenceTally {
  readonly bySlot = new Map<number, Entry[]>();

  constructor(
    slots: LruSlots,
    readonly cap: number,
  ) {
    slots.onReuse((slot) => this.bySlot.delete(slot));
  }

  admit(slot: number, id: number, weight: number, t: number): number {
    const window = Math.floor(t / TALLY_WINDOW_MS);
    let entries = this.bySlot.get(slot);
    if (entries === undefined) this.bySlot.set(slot, (entries = []));
    let entry = entries.find((e) => e.id === id);
    if (entry === undefined) {
      if (entries.length === TALLY_PRODUCTS) {
        const oldest = Math.min(...entries.map((e) => e.window));
        entries.splice(entries.findIndex((e) => e.window === oldest), 1);
      }
      entries.push((entry = { id, window, counted: 0 }));
    } else if (entry.window < window) {
      entry.window = window;
      entry.counted = 0;
    }
    const admitted = Math.max(0, Math.min(weight, this.cap - entry.counted));
    entry.counted = Math.fround(entry.counted + admitted);
    return admitted;
  }
}
