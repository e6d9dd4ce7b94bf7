// One WebSocket connection's rate limits: every operation (message) is charged to the connection's
// own bucket, then to its address's and its key's buckets, which it shares with HTTP; an `events`
// op costs one token per event, as a batch request does. Refusals are
// drawn from a second bucket of the connection's shape: a client refused faster than it may send
// ignores the retry hints, and is closed as a flooder.
import type { Principal } from '../app/principal.js';
import type { Limit, RateLimits } from '../transport/rate-limits.js';
import type { MonotonicMs } from '../limits/monotonic-clock.js';
import { TokenBucket } from '../limits/token-bucket.js';

export class SocketLimit {
  readonly #ops = new TokenBucket();
  readonly #refusals = new TokenBucket();
  #flooding = false;
  /** The limit behind the last refusal; valid until the next take. */
  refusedBy: Limit | undefined;

  constructor(
    readonly limits: RateLimits,
    /** The address's bucket key (RateLimits.clientOf at the upgrade). */
    readonly client: string,
    readonly key: string,
    readonly kind: Principal['kind'],
  ) {}

  /** True once this connection has been refused more operations than it may send. */
  get flooding(): boolean {
    return this.#flooding;
  }

  /**
   * 0 when an operation costing `cost` tokens (an `events` op: its events) may run at `now`, else the
   * ms until one may (see refusedBy). A secret key's operations cost one token of its key's bucket each, as its requests do.
   */
  take(now: MonotonicMs, cost = 1): number {
    const socket = this.limits.socket;
    let wait = socket === undefined ? 0 : this.#ops.take(socket.rate, now, cost);
    if (wait > 0) {
      this.limits.countRefusal('socket');
      this.refusedBy = socket;
    } else {
      // The address first (a secret key is not limited by address, as over HTTP): an operation its
      // address refuses takes nothing from the key, so one client cannot empty the key for everyone.
      if (this.kind === 'public' && (wait = this.limits.takeAddress(this.client, now, cost)) > 0) this.refusedBy = this.limits.address;
      else if ((wait = this.limits.takeKey(this.key, this.kind, now, this.kind === 'public' ? cost : 1)) > 0) this.refusedBy = this.limits.keyLimit(this.kind);
    }
    if (wait > 0 && socket !== undefined && this.#refusals.take(socket.rate, now) > 0) this.#flooding = true;
    return wait;
  }
}
