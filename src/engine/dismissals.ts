// Products a shopper dismissed, hidden from that shopper for `ttlMs` after the dismissal: per slot
// of the shopper table, a list in the order recorded (a product dismissed again moves to its end),
// in a block sized to what it holds (SlotBlocks: 12 bytes a dismissal, off the JavaScript heap).
// Few shoppers dismiss anything, but anyone holding the public key can dismiss for any shopper:
// the bound, (maxCustomers + maxSessions) × MAX_PER_SHOPPER × 12 bytes, holds whatever they send.
import type { LruSlots } from './lru-slots.js';
import { SlotBlocks, type SlotBlocksSnapshot } from './slot-blocks.js';
import { fromBytes } from './typed-arrays.js';

/** Dismissals kept per shopper; the earliest recorded go first past this. */
const MAX_PER_SHOPPER = 200;

/**
 * What a snapshot stores: the blocks, or (snapshots written before the blocks, still restored) one
 * flat Float64Array list: per slot with dismissals, slot, count, then (id, time) × count in the order recorded.
 */
export type DismissalsSnapshot = SlotBlocksSnapshot | Uint8Array;

export class Dismissals {
  /** Per slot: dense product ids and the epoch ms of each one's latest dismissal, in the order recorded. */
  readonly #blocks: SlotBlocks<[Int32Array, Float64Array]>;

  constructor(
    readonly slots: LruSlots,
    readonly ttlMs: number,
  ) {
    this.#blocks = new SlotBlocks(slots, MAX_PER_SHOPPER, [Int32Array, Float64Array]);
  }

  record(slot: number, id: number, t: number): void {
    const blocks = this.#blocks;
    let start = blocks.start(slot);
    let size = blocks.size(slot);
    let ids = blocks.lanes[0];
    let times = blocks.lanes[1];
    for (let k = 0; k < size; k++) {
      if (ids[start + k] !== id) continue;
      if (times[start + k]! >= t) return;
      blocks.removeAt(slot, k);
      size--;
      break;
    }
    if (size === MAX_PER_SHOPPER) {
      blocks.removeAt(slot, 0);
      size--;
    }
    blocks.reserve(slot, size + 1);
    start = blocks.start(slot);
    ids = blocks.lanes[0];
    times = blocks.lanes[1];
    ids[start + size] = id;
    times[start + size] = t;
    blocks.setSize(slot, size + 1);
  }

  /** Calls `hide` with each product the slot's shopper dismissed within the ttl before `now`, in the order recorded. */
  hiddenFor(slot: number, now: number, hide: (id: number) => void): void {
    const blocks = this.#blocks;
    const size = blocks.size(slot);
    if (size === 0) return;
    const start = blocks.start(slot);
    const ids = blocks.lanes[0];
    const times = blocks.lanes[1];
    for (let k = start; k < start + size; k++) if (now - times[k]! < this.ttlMs) hide(ids[k]!);
  }

  /** Forgets the slot's dismissals (an erasure). */
  clear(slot: number): void {
    this.#blocks.clear(slot);
  }

  snapshot(): DismissalsSnapshot {
    return this.#blocks.snapshot();
  }

  /** Restores a snapshot taken with the same slots (restore the slots first), into empty dismissals. */
  restore(snapshot: DismissalsSnapshot): void {
    if (!(snapshot instanceof Uint8Array)) {
      this.#blocks.restore(snapshot);
      return;
    }
    const flat = fromBytes(Float64Array, snapshot);
    for (let k = 0; k < flat.length; ) {
      const slot = flat[k++]!;
      for (let end = k + 2 * flat[k++]!; k < end; k += 2) this.record(slot, flat[k]!, flat[k + 1]!);
    }
  }
}
