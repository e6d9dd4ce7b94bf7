// A lease kept in LMDB: which process of the data dir does the work that must run once (snapshots,
// EASE refits, pruning). The holder renews it every `ttlMs / 4`; when it dies, the lease runs out
// and another process takes it within `ttlMs` plus one renewal. Taken and renewed inside a write
// transaction, so two processes never both hold it. Not flushed: after a crash of the machine
// every process starts again anyway.
import { randomBytes } from 'node:crypto';
import type { Databases } from './database.js';

export interface LeaseRecord {
  /** The process holding it (pid and a random tag of its start). */
  holder: string;
  /** Epoch ms it runs out, unless renewed. */
  until: number;
}

export class Lease {
  readonly holder = `${process.pid}:${randomBytes(4).toString('hex')}`;
  #held = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly dbs: Databases,
    readonly name: string,
    readonly ttlMs: number,
    readonly clock: () => number = Date.now,
    /** Told when this process takes the lease or loses it. */
    readonly changed: (held: boolean) => void = () => {},
  ) {}

  /** Whether this process held the lease at its last renewal. */
  get held(): boolean {
    return this.#held;
  }

  /** Takes the lease if it is free or ran out, renews it if held; resolves with whether it is held. */
  async renew(): Promise<boolean> {
    const { leases } = this.dbs;
    const now = this.clock();
    const held = await this.dbs.committer(this.dbs.root, () => {
      const current = leases.get(this.name);
      if (current !== undefined && current.holder !== this.holder && current.until > now) return false;
      leases.put(this.name, { holder: this.holder, until: now + this.ttlMs });
      return true;
    }).committed.catch(() => false); // a commit that fails (a full disk) holds nothing
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
    await this.dbs.committer(this.dbs.root, () => {
      if (this.dbs.leases.get(this.name)?.holder === this.holder) this.dbs.leases.remove(this.name);
    }).committed.catch(() => {});
  }
}
