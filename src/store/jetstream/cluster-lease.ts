// A lease held by one process of the whole cluster (the EASE refits: heavy work done once, its
// result published in the log for every node), kept in a JetStream key-value bucket. Taken and
// renewed by compare-and-set on the key's revision, then read back: nats-server 2.9 lets two
// concurrent writes that expect the same revision both through on a replicated bucket, so a writer
// holds the lease only if the key names it once its write is in. Two processes that wrote at once
// may both believe they hold it until their next renewal (ttlMs / 4), which reads the one value
// both see: for work whose result goes through the log (an EASE fit), that costs a duplicate fit,
// never a wrong answer. When the holder dies (or loses NATS) the lease runs out and another takes
// it. `until` is the holder's clock: nodes' clocks are assumed within a fraction of ttlMs.
import type { KV } from '@nats-io/kv';
import { randomBytes } from 'node:crypto';

interface LeaseValue {
  holder: string;
  until: number;
}

export class ClusterLease {
  readonly holder = `${process.pid}:${randomBytes(6).toString('hex')}`;
  #held = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    readonly kv: KV,
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

  /** Takes the lease if it is free or ran out, renews it if held; resolves with whether it is held (false when NATS cannot be reached). */
  async renew(): Promise<boolean> {
    const held = await this.#try().catch(() => false);
    if (held !== this.#held) {
      this.#held = held;
      this.changed(held);
    }
    return held;
  }

  async #try(): Promise<boolean> {
    const now = this.clock();
    const value = JSON.stringify({ holder: this.holder, until: now + this.ttlMs } satisfies LeaseValue);
    const entry = await this.kv.get(this.name);
    if (entry !== null && entry.operation === 'PUT') {
      const current = entry.json<LeaseValue>();
      if (current.holder !== this.holder && current.until > now) return false;
    }
    // Throws when another process wrote it since the read (when the server checks: see above).
    if (entry === null) await this.kv.create(this.name, value);
    else await this.kv.update(this.name, value, entry.revision);
    const written = await this.kv.get(this.name);
    return written?.operation === 'PUT' && written.json<LeaseValue>().holder === this.holder;
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
    const entry = await this.kv.get(this.name).catch(() => null);
    if (entry?.operation === 'PUT' && entry.json<LeaseValue>().holder === this.holder) await this.kv.delete(this.name, { previousSeq: entry.revision }).catch(() => {});
  }
}
