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
import { RenewedLease } from '../renewed-lease.js';

interface LeaseValue {
  holder: string;
  until: number;
}

export class ClusterLease extends RenewedLease {
  constructor(
    readonly kv: KV,
    name: string,
    ttlMs: number,
    clock: () => number = Date.now,
    changed: (held: boolean) => void = () => {},
  ) {
    super(name, ttlMs, clock, changed);
  }

  protected async take(now: number, until: number): Promise<boolean> {
    const entry = await this.kv.get(this.name);
    if (entry !== null && entry.operation === 'PUT') {
      const current = entry.json<LeaseValue>();
      if (current.holder !== this.holder && current.until > now) return false;
    }
    const value = JSON.stringify({ holder: this.holder, until } satisfies LeaseValue);
    // Throws when another process wrote it since the read (when the server checks: see above).
    if (entry === null) await this.kv.create(this.name, value);
    else await this.kv.update(this.name, value, entry.revision);
    const written = await this.kv.get(this.name);
    return written?.operation === 'PUT' && written.json<LeaseValue>().holder === this.holder;
  }

  protected async giveUp(): Promise<void> {
    const entry = await this.kv.get(this.name);
    if (entry?.operation === 'PUT' && entry.json<LeaseValue>().holder === this.holder) await this.kv.delete(this.name, { previousSeq: entry.revision });
  }
}
