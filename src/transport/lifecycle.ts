// Tracks requests in flight so shutdown can stop accepting, let them finish, then close.

export class Lifecycle {
  #inFlight = 0;
  #closing = false;
  #idle: (() => void)[] = [];

  get closing(): boolean {
    return this.#closing;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  begin(): void {
    this.#inFlight++;
  }

  end(): void {
    if (--this.#inFlight === 0) for (const resolve of this.#idle.splice(0)) resolve();
  }

  /** Marks the server closing; resolves when no request is in flight or after `timeoutMs`. */
  drain(timeoutMs: number): Promise<void> {
    this.#closing = true;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
