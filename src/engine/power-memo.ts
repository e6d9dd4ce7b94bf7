// x^p for one fixed exponent p, remembered per dense id with the x it was computed at. A power with
// a fractional exponent costs ~50-100 ns; bought-together takes one per entry of a neighbour row
// (up to 2K per answer), of counts that change only when that product joins a basket, so the
// same powers were computed again by every answer. Memory: 16 bytes per dense id.

export class PowerMemo {
  /** Per dense id: the x its value was computed at (NaN: none yet). */
  #at = new Float64Array(0);
  #value = new Float64Array(0);

  constructor(readonly exponent: number) {}

  /** x ** exponent: the same double as computing it, computed again only when `x` changed for `id`. */
  of(id: number, x: number): number {
    if (id >= this.#at.length) this.#grow(id + 1);
    if (this.#at[id] === x) return this.#value[id]!;
    const value = x ** this.exponent;
    this.#at[id] = x;
    this.#value[id] = value;
    return value;
  }

  #grow(minLength: number): void {
    const length = Math.max(minLength, 64, this.#at.length * 2);
    const at = new Float64Array(length).fill(NaN);
    at.set(this.#at);
    const value = new Float64Array(length);
    value.set(this.#value);
    this.#at = at;
    this.#value = value;
  }
}
