// A flag the holder of a lease raises while its work runs (an EASE refit), kept in LMDB beside the
// lease so that every process of the data dir can tell (/metrics, answered by any of them). It
// counts only while its holder still holds the lease: a holder that died with the flag up leaves
// nothing standing once its lease runs out.
import type { Databases } from './database.js';
import type { Lease } from './lease.js';

export class LeaseFlag {
  constructor(
    readonly dbs: Databases,
    readonly lease: Lease,
    readonly name: string,
    readonly clock: () => number = Date.now,
  ) {}

  /** Raises or lowers the flag (not flushed, like the lease; a failed commit is ignored: the flag is only shown). */
  set(up: boolean): Promise<void> {
    const { leases } = this.dbs;
    return this.dbs.committer(this.dbs.root, () => {
      if (up) leases.put(this.name, { holder: this.lease.holder, until: Number.MAX_SAFE_INTEGER });
      else if (leases.get(this.name)?.holder === this.lease.holder) leases.remove(this.name);
    }).committed.catch(() => {});
  }

  /** Whether the flag is up, raised by the lease's current holder. */
  get up(): boolean {
    const flag = this.dbs.leases.get(this.name);
    if (flag === undefined) return false;
    const lease = this.dbs.leases.get(this.lease.name);
    return lease !== undefined && lease.holder === flag.holder && lease.until > this.clock();
  }
}
