// Slots of an LruSlots table whose key was erased (a customer's erasure) and not written since. The
// table keeps such a key until its slot is reused; its state is already cleared, and a snapshot
// stores the slot under a placeholder instead of the key, so no snapshot on disk names it.
import type { LruSlots, LruSlotsSnapshot } from './lru-slots.js';

/** Longer than any id an event, token or app proxy gives (128 characters at most): no shopper can have it. */
const PLACEHOLDER = '\u0000erased\u0000'.padEnd(129, '\u0000');

export class ErasedKeys {
  readonly #slots = new Set<number>();

  constructor(readonly table: LruSlots) {
    table.onReuse((slot) => this.#slots.delete(slot));
  }

  /**
   * Keys the table holds that were not erased, in key space `space` (all of them without one): what
   * a count of shoppers says, an erased one being gone although its slot waits for reuse.
   * Work: the erased slots (a few, until reused).
   */
  held(space?: number): number {
    let erased = 0;
    for (const slot of this.#slots) if (space === undefined || this.table.spaceOfSlot(slot) === space) erased++;
    return (space === undefined ? this.table.size : this.table.sizeOf(space)) - erased;
  }

  /** After the table was restored from a snapshot: the slots it stored under a placeholder are erased ones. Work: one pass over the slots. */
  restored(): void {
    for (let slot = 0; slot < this.table.size; slot++) if (this.table.idOf(slot).startsWith(PLACEHOLDER)) this.#slots.add(slot);
  }

  /** The slot's key was erased: its state is cleared by the caller. */
  mark(slot: number): void {
    this.#slots.add(slot);
  }

  /** The slot was written again (its key is back, with new state): it is kept as it is. */
  written(slot: number): void {
    if (this.#slots.size > 0) this.#slots.delete(slot);
  }

  /** The snapshot with each erased slot's id replaced by a placeholder unique to the slot (the snapshot's ids are its own copy). */
  scrub(snapshot: LruSlotsSnapshot): LruSlotsSnapshot {
    if (this.#slots.size === 0) return snapshot;
    const ids = 'ids' in snapshot ? snapshot.ids : snapshot.keys;
    for (const slot of this.#slots) ids[slot] = PLACEHOLDER + slot;
    return snapshot;
  }
}
