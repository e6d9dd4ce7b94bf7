// A lease kept in LMDB: which process of the data dir does the work that must run once (snapshots,
// EASE refits, pruning). Taken and renewed inside a write transaction, so two processes never both
// hold it. Not flushed: after a crash of the machine every process starts again anyway.
import type { Databases } from './database.js';
import type { LeaseRecord } from './records.js';
import { RenewedLease } from './renewed-lease.js';

export type { LeaseRecord };

export class Lease extends RenewedLease {
  constructor(
    readonly dbs: Databases,
    name: string,
    ttlMs: number,
    clock: () => number = Date.now,
    changed: (held: boolean) => void = () => {},
  ) {
    super(name, ttlMs, clock, changed);
  }

  protected take(now: number, until: number): Promise<boolean> {
    const { leases } = this.dbs;
    // A commit that fails (a full disk) holds nothing.
    return this.dbs.committer(this.dbs.root, () => {
      const current = leases.get(this.name);
      if (current !== undefined && current.holder !== this.holder && current.until > now) return false;
      leases.put(this.name, { holder: this.holder, until });
      return true;
    }).committed;
  }

  protected async giveUp(): Promise<void> {
    await this.dbs.committer(this.dbs.root, () => {
      if (this.dbs.leases.get(this.name)?.holder === this.holder) this.dbs.leases.remove(this.name);
    }).committed;
  }
}
