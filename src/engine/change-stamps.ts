// Change tracking for the answer cache: the engine counts its changes (one tick per event or
// catalog change) and each model stamps the parts it changes (a product's neighbour row, a
// shopper) with the current count. An answer computed at count S stays exact while every part it
// read still has a stamp ≤ S; a part changed later has a larger stamp.

export class ChangeClock {
  #now = 0;

  /** The count of the change being applied (or of the last one, between changes). */
  get now(): number {
    return this.#now;
  }

  /** Starts the next change. */
  tick(): number {
    return ++this.#now;
  }

  /** Continues counting from a snapshot's count. */
  restore(now: number): void {
    this.#now = now;
  }
}

/** The stamp of the last change of each part, by dense index (0: never changed). */
export class Stamps {
  #values = new Float64Array(256);

  constructor(readonly clock: ChangeClock) {}

  mark(index: number): void {
    if (index >= this.#values.length) this.#grow(index + 1);
    this.#values[index] = this.clock.now;
  }

  at(index: number): number {
    return index < this.#values.length ? this.#values[index]! : 0;
  }

  #grow(min: number): void {
    let size = this.#values.length;
    while (size < min) size *= 2;
    const values = new Float64Array(size);
    values.set(this.#values);
    this.#values = values;
  }
}
