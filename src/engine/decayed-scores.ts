// Exponentially time-decayed weighted counts per dense product id, kept with "forward decay"
// (Cormode et al. 2009): each event adds w·2^((t−L)/h) for a landmark L, so the ranking of stored
// values never changes as time passes and a decayed value at `now` is one multiply away.
// Adding is O(1); the result does not depend on the order events arrive in.
import { bytesOf, fromBytes } from './typed-arrays.js';

/** Past this exponent (2^600 ≈ 4e180) values are rescaled to a newer landmark. */
const MAX_EXPONENT = 600;

export interface DecayedScoresSnapshot {
  /** Value by dense id (Float64Array bytes). */
  values: Uint8Array;
  landmark: number | null;
}

export class DecayedScores {
  #values = new Float64Array(1024);
  #landmark: number | undefined;
  readonly #perMs: number;

  constructor(readonly halfLifeMs: number) {
    this.#perMs = 1 / halfLifeMs;
  }

  /** Adds `weight` at event time `t` (epoch ms). */
  add(id: number, weight: number, t: number): void {
    if (this.#landmark === undefined) this.#landmark = t;
    let exponent = (t - this.#landmark) * this.#perMs;
    if (exponent > MAX_EXPONENT) {
      this.#rebase(t);
      exponent = 0;
    }
    if (id >= this.#values.length) this.#grow(id);
    this.#values[id] += weight * 2 ** exponent;
  }

  /** The stored value: comparable between ids, not meaningful alone. */
  raw(id: number): number {
    return id < this.#values.length ? this.#values[id]! : 0;
  }

  /** Multiply a raw value by this to get the decayed weighted count at `now`. */
  scaleAt(now: number): number {
    return this.#landmark === undefined ? 0 : 2 ** ((this.#landmark - now) * this.#perMs);
  }

  snapshot(): DecayedScoresSnapshot {
    let used = this.#values.length;
    while (used > 0 && this.#values[used - 1] === 0) used--;
    return { values: bytesOf(this.#values.subarray(0, used)), landmark: this.#landmark ?? null };
  }

  restore(snapshot: DecayedScoresSnapshot): void {
    const values = fromBytes(Float64Array, snapshot.values);
    this.#values = new Float64Array(Math.max(1024, values.length));
    this.#values.set(values);
    this.#landmark = snapshot.landmark ?? undefined;
  }

  /** Dense ids with a positive value (a full scan: for fallbacks, not the hot path). */
  *positive(): IterableIterator<number> {
    const values = this.#values;
    for (let id = 0; id < values.length; id++) if (values[id]! > 0) yield id;
  }

  #rebase(t: number): void {
    const factor = 2 ** ((this.#landmark! - t) * this.#perMs);
    const values = this.#values;
    for (let i = 0; i < values.length; i++) values[i] = values[i]! * factor;
    this.#landmark = t;
  }

  #grow(id: number): void {
    let size = this.#values.length;
    while (size <= id) size *= 2;
    const next = new Float64Array(size);
    next.set(this.#values);
    this.#values = next;
  }
}
