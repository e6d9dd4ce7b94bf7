// Work that must not hold the event loop: queued jobs run a few per turn of it (setImmediate), so
// the I/O that arrives meanwhile — other shops' requests — is served between them. One change can
// make hundreds of live subscriptions due at once; recomputed back to back they would stall every
// request behind them for as long as all of them take.
export class TurnQueue<T> {
  #jobs: T[] = [];
  #next = 0;
  #scheduled = false;

  constructor(
    /** Jobs run per turn of the event loop. */
    readonly perTurn: number,
    readonly run: (job: T) => void,
  ) {}

  /** Jobs waiting. */
  get pending(): number {
    return this.#jobs.length - this.#next;
  }

  push(job: T): void {
    this.#jobs.push(job);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#turn);
  }

  /** Drops every waiting job. */
  clear(): void {
    this.#jobs = [];
    this.#next = 0;
  }

  readonly #turn = (): void => {
    try {
      for (let ran = 0; ran < this.perTurn && this.#next < this.#jobs.length; ran++) this.run(this.#jobs[this.#next++]!);
    } finally {
      if (this.#next >= this.#jobs.length) {
        this.#jobs = [];
        this.#next = 0;
        this.#scheduled = false;
      } else {
        setImmediate(this.#turn);
      }
    }
  };
}
