// A set of dense ids as marks in a Uint8Array plus the list of marked ids: O(1) add and has, and
// clear costs only what was added. Reused across answers instead of a Set per request.

export class DenseSet {
  #marks = new Uint8Array(1024);
  #members = new Int32Array(64);
  #size = 0;

  add(id: number): void {
    if (id >= this.#marks.length) {
      let size = this.#marks.length;
      while (size <= id) size *= 2;
      const marks = new Uint8Array(size);
      marks.set(this.#marks);
      this.#marks = marks;
    }
    if (this.#marks[id] === 1) return;
    this.#marks[id] = 1;
    if (this.#size === this.#members.length) {
      const members = new Int32Array(this.#size * 2);
      members.set(this.#members);
      this.#members = members;
    }
    this.#members[this.#size++] = id;
  }

  has(id: number): boolean {
    return id < this.#marks.length && this.#marks[id] === 1;
  }

  get size(): number {
    return this.#size;
  }

  clear(): void {
    for (let i = 0; i < this.#size; i++) this.#marks[this.#members[i]!] = 0;
    this.#size = 0;
  }
}
