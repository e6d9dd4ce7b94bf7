// Reference for engine/shopper-tally.ts, in the plainest form: per slot the window it counts in and
// an array of { id, counted } in the order added; the first event of a later window (or of an
// empty slot) starts it afresh, an earlier window's event counts against the slot's, and the first
// entry is dropped when it holds TALLY_PRODUCTS.
import type { LruSlots } from '../../src/engine/lru-slots.js';
import { TALLY_PRODUCTS, TALLY_WINDOW_MS } from '../../src/engine/shopper-tally.js';

interface SlotTally {
  window: number;
  entries: { id: number; counted: number }[];
}

export class ReferenceTally {
  readonly bySlot = new Map<number, SlotTally>();

  constructor(
    slots: LruSlots,
    readonly cap: number,
  ) {
    slots.onReuse((slot) => this.bySlot.delete(slot));
  }

  admit(slot: number, id: number, weight: number, t: number): number {
    const window = Math.floor(t / TALLY_WINDOW_MS);
    let tally = this.bySlot.get(slot);
    if (tally === undefined || tally.entries.length === 0 || window > tally.window) this.bySlot.set(slot, (tally = { window, entries: [] }));
    let entry = tally.entries.find((e) => e.id === id);
    if (entry === undefined) {
      if (tally.entries.length === TALLY_PRODUCTS) tally.entries.shift();
      tally.entries.push((entry = { id, counted: 0 }));
    }
    const admitted = Math.max(0, Math.min(weight, this.cap - entry.counted));
    entry.counted = Math.fround(entry.counted + admitted);
    return admitted;
  }
}
