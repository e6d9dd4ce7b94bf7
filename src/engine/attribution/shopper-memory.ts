// What attribution remembers per shopper, in typed arrays by slot of one bounded LRU of keys
// ('s:' sessions, 'c:' customers, each in a pool of its own; the least recently written dropped first):
//   - shown: the last SHOWN_PER_SHOPPER products a recommendation showed the session (impressions
//     with a recId), each with the attribution key it was shown under and its UTC day (a key's
//     storefront widget names a day's widget: widget-names.ts), newest last;
//   - clicks: the last CLICKS_PER_SHOPPER distinct products the shopper clicked from a
//     recommendation, each with its key and time (clicking a product again moves it to newest), and
//     whether it already went on to a cart and to an order (each counts once per click). One click
//     is remembered for its customer and its session: the two entries share an id and each names
//     the other's slot (its twin), so that what one of them goes on to is marked on both.
// Products are held as 32-bit hashes of their bare ids (productHash), so the memory does not depend
// on the catalog (a replay, catalog first, and the live service see the same thing); two of one
// shopper's ≤ 48 remembered products sharing a hash is a chance of about 48² / 2^33.
import { LruSlots, type LruSlotsSnapshot } from '../lru-slots.js';
import { SHOPPER_PREFIXES } from '../shopper-keys.js';
import { ErasedKeys } from '../erased-keys.js';
import { bytesOf, fromBytes, grownTo } from '../typed-arrays.js';

export const SHOWN_PER_SHOPPER = 32;
export const CLICKS_PER_SHOPPER = 16;

/** What a remembered click went on to (ShopperMemory.mark): flags, each set at most once. */
export const CARTED = 1;
export const CONVERTED = 2;

/** FNV-1a over the id's UTF-16 code units, as a signed 32-bit integer. */
export function productHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h | 0;
}

export interface ShopperMemorySnapshot {
  slots: LruSlotsSnapshot;
  shownCount: Uint8Array;
  shownHead: Uint8Array;
  shownProducts: Uint8Array;
  shownKeys: Uint8Array;
  /** Absent in snapshots from before pinned items were told apart: none was pinned. */
  shownPinned?: Uint8Array;
  /** Absent in snapshots from before: their keys name widgets for good, whatever the day. */
  shownDays?: Uint8Array;
  clickCount: Uint8Array;
  clickProducts: Uint8Array;
  clickKeys: Uint8Array;
  clickPinned?: Uint8Array;
  clickTimes: Uint8Array;
  /** Absent in snapshots from before clicks were marked: none marked, no ids or twins. */
  clickIds?: Uint8Array;
  clickTwins?: Uint8Array;
  clickFlags?: Uint8Array;
  nextClickId?: number;
}

export class ShopperMemory {
  readonly slots: LruSlots;
  /** Per slot: entries in the shown ring, and where the next one goes. */
  #shownCount = new Uint8Array(0);
  #shownHead = new Uint8Array(0);
  #shownProducts = new Int32Array(0);
  #shownKeys = new Uint32Array(0);
  /** 1 where the product was shown as a rule's pin (not ranked by the strategy). */
  #shownPinned = new Uint8Array(0);
  /** UTC days since the epoch (a Uint16 holds them until 2149). */
  #shownDays = new Uint16Array(0);
  /** Per slot: clicks held, oldest first in [slot * CLICKS_PER_SHOPPER, + count). */
  #clickCount = new Uint8Array(0);
  #clickProducts = new Int32Array(0);
  #clickKeys = new Uint32Array(0);
  #clickPinned = new Uint8Array(0);
  #clickTimes = new Float64Array(0);
  /** A click's id (shared by its customer's and its session's entry; 0: none), its twin's slot (-1: none) and its CARTED / CONVERTED flags. */
  #clickIds = new Uint32Array(0);
  #clickTwins = new Int32Array(0);
  #clickFlags = new Uint8Array(0);
  #nextClickId = 1;

  readonly #erased: ErasedKeys;

  /** @param capacity as LruSlots's: one pool for all shoppers, or one per key space */
  constructor(capacity: number | readonly number[]) {
    this.slots = new LruSlots(capacity, SHOPPER_PREFIXES);
    this.#erased = new ErasedKeys(this.slots);
    this.slots.onReuse((slot) => {
      this.#shownCount[slot] = 0;
      this.#shownHead[slot] = 0;
      this.#clickCount[slot] = 0;
    });
  }

  /** The shopper's slot (a customer or session id in its key space: shopper-keys.ts), created (and its arrays grown) if new, marked most recently written. */
  touch(space: number, id: string): number {
    const slot = this.slots.touchIn(space, id);
    this.#reserve(slot + 1);
    this.#erased.written(slot);
    return slot;
  }

  /** Forgets what is remembered of the shopper (an erasure); a snapshot no longer names them. */
  forget(space: number, id: string): void {
    const slot = this.slots.slotIn(space, id);
    if (slot < 0) return;
    this.#shownCount[slot] = 0;
    this.#shownHead[slot] = 0;
    this.#clickCount[slot] = 0;
    this.#erased.mark(slot);
  }

  /** The shopper's slot, or -1; reading does not count as a write. */
  slotOf(space: number, id: string): number {
    return this.slots.slotIn(space, id);
  }

  /** Remembers that a recommendation under `key` showed `product` to the shopper in `slot` on `day`. */
  shown(slot: number, product: number, key: number, day: number, pinned = false): void {
    const head = this.#shownHead[slot]!;
    const at = slot * SHOWN_PER_SHOPPER + head;
    this.#shownProducts[at] = product;
    this.#shownKeys[at] = key;
    this.#shownPinned[at] = pinned ? 1 : 0;
    this.#shownDays[at] = day;
    this.#shownHead[slot] = (head + 1) % SHOWN_PER_SHOPPER;
    if (this.#shownCount[slot]! < SHOWN_PER_SHOPPER) this.#shownCount[slot]!++;
  }

  /** Index (into shownKey/shownDay) of the newest showing of `product` to the shopper in `slot`; -1 when none is remembered. */
  shownOf(slot: number, product: number): number {
    const count = this.#shownCount[slot]!;
    const base = slot * SHOWN_PER_SHOPPER;
    let at = this.#shownHead[slot]!;
    for (let i = 0; i < count; i++) {
      at = at === 0 ? SHOWN_PER_SHOPPER - 1 : at - 1;
      if (this.#shownProducts[base + at] === product) return base + at;
    }
    return -1;
  }

  shownKey(index: number): number {
    return this.#shownKeys[index]!;
  }

  shownDay(index: number): number {
    return this.#shownDays[index]!;
  }

  /** Whether that showing was a rule's pin. */
  shownPinned(index: number): boolean {
    return this.#shownPinned[index] === 1;
  }

  /** A new click's id, for both of its entries (never 0). */
  newClickId(): number {
    const id = this.#nextClickId;
    this.#nextClickId = id === 0xffffffff ? 1 : id + 1;
    return id;
  }

  /**
   * Remembers the shopper's click on `product` from `key` at `t` (replacing an older click on it),
   * with its id and its twin's slot; returns its index (valid until the slot's next click).
   */
  clicked(slot: number, product: number, key: number, t: number, pinned = false, id = 0, twin = -1): number {
    const base = slot * CLICKS_PER_SHOPPER;
    let count = this.#clickCount[slot]!;
    let i = 0;
    while (i < count && this.#clickProducts[base + i] !== product) i++;
    if (i === count && count === CLICKS_PER_SHOPPER) i = 0; // full: the oldest goes
    else if (i === count) this.#clickCount[slot] = ++count;
    // Shift the ones after it down, then write it as newest.
    this.#clickProducts.copyWithin(base + i, base + i + 1, base + count);
    this.#clickKeys.copyWithin(base + i, base + i + 1, base + count);
    this.#clickTimes.copyWithin(base + i, base + i + 1, base + count);
    this.#clickPinned.copyWithin(base + i, base + i + 1, base + count);
    this.#clickIds.copyWithin(base + i, base + i + 1, base + count);
    this.#clickTwins.copyWithin(base + i, base + i + 1, base + count);
    this.#clickFlags.copyWithin(base + i, base + i + 1, base + count);
    const last = base + count - 1;
    this.#clickProducts[last] = product;
    this.#clickKeys[last] = key;
    this.#clickPinned[last] = pinned ? 1 : 0;
    this.#clickTimes[last] = t;
    this.#clickIds[last] = id;
    this.#clickTwins[last] = twin;
    this.#clickFlags[last] = 0;
    return last;
  }

  /** Names `twin` as the other slot of the click `id` on `product` that `slot` holds. */
  setTwin(slot: number, product: number, id: number, twin: number): void {
    const index = this.clickOf(slot, product);
    if (index >= 0 && this.#clickIds[index] === id) this.#clickTwins[index] = twin;
  }

  /**
   * Marks the click at `index`, and the same click in its twin's slot, with `flag` (CARTED or
   * CONVERTED); false when it already had it (it went on to that before: count it once).
   */
  mark(index: number, flag: number): boolean {
    if ((this.#clickFlags[index]! & flag) !== 0) return false;
    this.#clickFlags[index]! |= flag;
    const id = this.#clickIds[index]!;
    const twin = this.#clickTwins[index]!;
    if (id !== 0 && twin >= 0) {
      const other = this.clickOf(twin, this.#clickProducts[index]!);
      if (other >= 0 && this.#clickIds[other] === id) this.#clickFlags[other]! |= flag;
    }
    return true;
  }

  /** Index (into clickKey/clickTime) of the shopper's remembered click on `product`; -1 when none. */
  clickOf(slot: number, product: number): number {
    const base = slot * CLICKS_PER_SHOPPER;
    const count = this.#clickCount[slot]!;
    for (let i = 0; i < count; i++) if (this.#clickProducts[base + i] === product) return base + i;
    return -1;
  }

  clickKey(index: number): number {
    return this.#clickKeys[index]!;
  }

  clickTime(index: number): number {
    return this.#clickTimes[index]!;
  }

  /** Whether that click was on a rule's pin. */
  clickPinned(index: number): boolean {
    return this.#clickPinned[index] === 1;
  }

  snapshot(): ShopperMemorySnapshot {
    const slots = this.#erased.scrub(this.slots.snapshot());
    const n = this.slots.size;
    return {
      slots,
      shownCount: bytesOf(this.#shownCount.subarray(0, n)),
      shownHead: bytesOf(this.#shownHead.subarray(0, n)),
      shownProducts: bytesOf(this.#shownProducts.subarray(0, n * SHOWN_PER_SHOPPER)),
      shownKeys: bytesOf(this.#shownKeys.subarray(0, n * SHOWN_PER_SHOPPER)),
      shownPinned: bytesOf(this.#shownPinned.subarray(0, n * SHOWN_PER_SHOPPER)),
      shownDays: bytesOf(this.#shownDays.subarray(0, n * SHOWN_PER_SHOPPER)),
      clickCount: bytesOf(this.#clickCount.subarray(0, n)),
      clickProducts: bytesOf(this.#clickProducts.subarray(0, n * CLICKS_PER_SHOPPER)),
      clickKeys: bytesOf(this.#clickKeys.subarray(0, n * CLICKS_PER_SHOPPER)),
      clickPinned: bytesOf(this.#clickPinned.subarray(0, n * CLICKS_PER_SHOPPER)),
      clickTimes: bytesOf(this.#clickTimes.subarray(0, n * CLICKS_PER_SHOPPER)),
      clickIds: bytesOf(this.#clickIds.subarray(0, n * CLICKS_PER_SHOPPER)),
      clickTwins: bytesOf(this.#clickTwins.subarray(0, n * CLICKS_PER_SHOPPER)),
      clickFlags: bytesOf(this.#clickFlags.subarray(0, n * CLICKS_PER_SHOPPER)),
      nextClickId: this.#nextClickId,
    };
  }

  restore(snapshot: ShopperMemorySnapshot): void {
    this.slots.restore(snapshot.slots);
    const n = this.slots.size;
    this.#reserve(n);
    this.#shownCount.set(fromBytes(Uint8Array, snapshot.shownCount));
    this.#shownHead.set(fromBytes(Uint8Array, snapshot.shownHead));
    this.#shownProducts.set(fromBytes(Int32Array, snapshot.shownProducts));
    this.#shownKeys.set(fromBytes(Uint32Array, snapshot.shownKeys));
    if (snapshot.shownDays !== undefined) this.#shownDays.set(fromBytes(Uint16Array, snapshot.shownDays));
    if (snapshot.shownPinned !== undefined) this.#shownPinned.set(fromBytes(Uint8Array, snapshot.shownPinned));
    if (snapshot.clickPinned !== undefined) this.#clickPinned.set(fromBytes(Uint8Array, snapshot.clickPinned));
    this.#clickCount.set(fromBytes(Uint8Array, snapshot.clickCount));
    this.#clickProducts.set(fromBytes(Int32Array, snapshot.clickProducts));
    this.#clickKeys.set(fromBytes(Uint32Array, snapshot.clickKeys));
    this.#clickTimes.set(fromBytes(Float64Array, snapshot.clickTimes));
    this.#clickTwins.fill(-1);
    if (snapshot.clickIds !== undefined) this.#clickIds.set(fromBytes(Uint32Array, snapshot.clickIds));
    if (snapshot.clickTwins !== undefined) this.#clickTwins.set(fromBytes(Int32Array, snapshot.clickTwins));
    if (snapshot.clickFlags !== undefined) this.#clickFlags.set(fromBytes(Uint8Array, snapshot.clickFlags));
    if (snapshot.nextClickId !== undefined) this.#nextClickId = snapshot.nextClickId;
  }

  #reserve(slots: number): void {
    if (this.#shownCount.length >= slots) return;
    const max = this.slots.maxSlots;
    this.#shownCount = grownTo(this.#shownCount, slots, max);
    this.#shownHead = grownTo(this.#shownHead, slots, max);
    this.#clickCount = grownTo(this.#clickCount, slots, max);
    const capacity = this.#shownCount.length;
    this.#shownProducts = grownTo(this.#shownProducts, capacity * SHOWN_PER_SHOPPER);
    this.#shownKeys = grownTo(this.#shownKeys, capacity * SHOWN_PER_SHOPPER);
    this.#shownDays = grownTo(this.#shownDays, capacity * SHOWN_PER_SHOPPER);
    this.#shownPinned = grownTo(this.#shownPinned, capacity * SHOWN_PER_SHOPPER);
    this.#clickPinned = grownTo(this.#clickPinned, capacity * CLICKS_PER_SHOPPER);
    this.#clickProducts = grownTo(this.#clickProducts, capacity * CLICKS_PER_SHOPPER);
    this.#clickKeys = grownTo(this.#clickKeys, capacity * CLICKS_PER_SHOPPER);
    this.#clickTimes = grownTo(this.#clickTimes, capacity * CLICKS_PER_SHOPPER);
    this.#clickIds = grownTo(this.#clickIds, capacity * CLICKS_PER_SHOPPER);
    this.#clickTwins = grownTo(this.#clickTwins, capacity * CLICKS_PER_SHOPPER);
    this.#clickFlags = grownTo(this.#clickFlags, capacity * CLICKS_PER_SHOPPER);
  }
}
