// What every lease of the service shares (the data dir's in LMDB, the cluster's in a JetStream
// key-value bucket): one holder among the processes that want it, kept by renewing it every
// ttlMs / 4, taken over by another once it runs out, given up at once on release. Subclasses say
// how it is taken or renewed, and how it is given up, in their store.
import { randomBytes } from 'node:crypto';

export abstract class RenewedLease {
  /** This process (pid and a random tag of this lease object). */
  readonly holder = `${process.pid}:${randomBytes(4).toString('hex')}`;
  #held = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly name: string,
    readonly ttlMs: number,
    readonly clock: () => number = Date.now,
    /** Told when this process takes the lease or loses it. */
    readonly changed: (held: boolean) => void = () => {},
  ) {}

  /** Takes the lease if free or run out, or renews it, running out at `until`; resolves with whether this process holds it (false when the store failed). */
  protected abstract take(now: number, until: number): Promise<boolean>;
  /** Gives the lease up in its store, if this process still holds it there. */
  protected abstract giveUp(): Promise<void>;

  /** Whether this process held the lease at its last renewal. */
  get held(): boolean {
    return this.#held;
  }

  /** Takes the lease if it is free or ran out, renews it if held; resolves with whether it is held. */
  async renew(): Promise<boolean> {
    const now = this.clock();
    const held = await this.take(now, now + this.ttlMs).catch(() => false);
    if (held !== this.#held) {
      this.#held = held;
      this.changed(held);
    }
    return held;
  }

  /** Renews every ttlMs / 4 from now on. */
  start(): void {
    this.#timer = setInterval(() => void this.renew(), Math.max(1, Math.floor(this.ttlMs / 4)));
    this.#timer.unref();
  }

  /** Stops renewing and gives the lease up (if held), so another process takes it at once. */
  async release(): Promise<void> {
    clearInterval(this.#timer);
    if (!this.#held) return;
    this.#held = false;
    this.changed(false);
    await this.giveUp().catch(() => {});
  }
}
