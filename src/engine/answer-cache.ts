// Finished answers kept with what they read (answer-reads.ts), so a repeated request is a lookup.
// An answer computed at change count S is served again only while
//   - it is younger than maxAgeMs (decayed scores and dismissal expiry move with time alone) and
//     `now` is before its expiry (the next edge of a rule's validity window),
//   - every model part it read still has a stamp ≤ S (an event that changed any of them makes it
//     stale at once: read-your-writes stays exact), and
//   - each shopper key it resolved still resolves to the same slot (a new or evicted shopper).
// Stamps and slots change only inside a change (after its tick), so once an entry is checked at
// change count C it needs no second look while the count is still C: a hit between changes is a
// lookup and an age test.
// Bounded by bytes: when full, the oldest entries go first.
import type { Stamps } from './change-stamps.js';
import type { AnswerReads } from './answer-reads.js';
import type { ShopEngine } from './shop-engine.js';

interface Entry<T> {
  readonly engine: ShopEngine;
  readonly value: T;
  readonly bytes: number;
  /** The engine's change count when computed. */
  readonly changes: number;
  readonly computedAt: number;
  /** Not served at or after this time (AnswerReads.expiresAt). */
  readonly expiresAt: number;
  readonly parts: Stamps[];
  readonly indices: Int32Array;
  /** The shoppers it resolved (key space, id) and their slots then. */
  readonly spaces: Uint8Array;
  readonly ids: string[];
  readonly slots: Int32Array;
  /** The change count at which its parts and keys were last found unchanged. */
  verifiedAt: number;
}

/** Per-entry bookkeeping beyond the value itself, in bytes (an estimate: keys, arrays, the Map slot). */
const ENTRY_OVERHEAD = 200;

export class AnswerCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  #bytes = 0;
  hits = 0;
  misses = 0;

  /**
   * @param maxBytes budget of all entries (values sized by `sizeOf`); 0 turns the cache off
   * @param maxAgeMs longest an answer is served after it was computed
   */
  constructor(
    readonly maxBytes: number,
    readonly maxAgeMs: number,
    readonly sizeOf: (value: T) => number,
  ) {}

  get bytes(): number {
    return this.#bytes;
  }

  /** The cached answer to `key`, if it is still exactly what the engine would answer at `now`. */
  get(engine: ShopEngine, key: string, now: number): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined || !fresh(entry, engine, now, this.maxAgeMs)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  /** Keeps `value`, just computed by `engine` at `now` with `reads` as recorded. */
  set(engine: ShopEngine, key: string, now: number, value: T, reads: AnswerReads): void {
    if (this.maxBytes === 0) return;
    const bytes = ENTRY_OVERHEAD + this.sizeOf(value) + key.length * 2 + reads.parts.length * 12 + reads.ids.length * 64;
    if (bytes > this.maxBytes) return;
    this.#delete(key);
    this.#entries.set(key, {
      engine,
      value,
      bytes,
      changes: engine.clock.now,
      computedAt: now,
      expiresAt: reads.expiresAt,
      parts: reads.parts.slice(),
      indices: Int32Array.from(reads.indices),
      spaces: Uint8Array.from(reads.spaces),
      ids: reads.ids.slice(),
      slots: Int32Array.from(reads.slots),
      verifiedAt: engine.clock.now,
    });
    this.#bytes += bytes;
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#delete(oldest);
    }
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }
}

function fresh<T>(entry: Entry<T>, engine: ShopEngine, now: number, maxAgeMs: number): boolean {
  if (entry.engine !== engine) return false;
  const age = now - entry.computedAt;
  if (age < 0 || age >= maxAgeMs || now >= entry.expiresAt) return false;
  const count = engine.clock.now;
  if (count === entry.verifiedAt) return true;
  const changes = entry.changes;
  for (let i = 0; i < entry.parts.length; i++) if (entry.parts[i]!.at(entry.indices[i]!) > changes) return false;
  for (let i = 0; i < entry.ids.length; i++) if (engine.shoppers.slotIn(entry.spaces[i]!, entry.ids[i]!) !== entry.slots[i]) return false;
  entry.verifiedAt = count;
  return true;
}
