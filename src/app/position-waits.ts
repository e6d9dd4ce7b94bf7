// Read-your-writes across server processes: a read that names the position of a write (`after=`)
// waits until this process has applied the shop's log through it, at most `maxWaitMs`, then is
// answered with what is there (and says it is stale). The write was committed before its
// acknowledgement, so it is in the log: the wait asks the tail to apply it at once rather than
// wait for the supervisor's notification.
import { parsePosition } from '../api/position-token.js';
import { AppError } from '../errors.js';
import type { ShopLog } from '../store/shop-log.js';
import type { LogTail } from '../ingest/log-tail.js';
import type { ShopEngines } from '../engine/shop-engines.js';

interface Waiter {
  position: number;
  resolve: (applied: boolean) => void;
}

export class PositionWaits {
  /** shopId → reads waiting for a position of it, in no order (a handful at a time). */
  readonly #waiting = new Map<string, Waiter[]>();

  constructor(
    readonly log: ShopLog,
    readonly engines: ShopEngines,
    readonly tail: LogTail,
    readonly maxWaitMs: number,
    /** The log's id, which positions carry (api/position-token.ts). */
    readonly logId: string,
    /**
     * Whether the log is replicated (PAIRWISE_NATS): a write another node acknowledged may not be
     * in this node's copy yet, so a position past it is waited for, not refused.
     */
    readonly replicated = false,
  ) {}

  /**
   * For a read that names a write's position (`raw`, as the client sent it): undefined when this
   * process has applied it already, else the wait (true once applied, false past maxWaitMs).
   * Throws AppError('invalid_position') for a malformed, foreign or past-the-log position.
   */
  pending(shopId: string, raw: string, pointer?: string): Promise<boolean> | undefined {
    const position = parsePosition(this.logId, raw, pointer);
    this.check(shopId, position);
    return this.applied(shopId, position) ? undefined : this.wait(shopId, position);
  }

  /** Throws AppError('invalid_position') for a position past the shop's log: no write was acknowledged there (known only without replication). */
  check(shopId: string, position: number): void {
    if (this.replicated) return;
    if (position > this.engines.position(shopId) && position > this.log.head(shopId, true)) {
      throw new AppError('invalid_position', `after is past shop's log: no write of this shop was acknowledged at that position`, [{ pointer: '/after', detail: 'past the log' }]);
    }
  }

  /** Whether the shop's models already stand for its log through `position`. */
  applied(shopId: string, position: number): boolean {
    return this.engines.position(shopId) >= position;
  }

  /** Resolves true once `position` is applied, false when `maxWaitMs` passed first. */
  wait(shopId: string, position: number): Promise<boolean> {
    if (this.applied(shopId, position)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        position,
        resolve: (applied) => {
          clearTimeout(timer);
          this.#remove(shopId, waiter);
          resolve(applied);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), this.maxWaitMs);
      let list = this.#waiting.get(shopId);
      if (list === undefined) this.#waiting.set(shopId, (list = []));
      list.push(waiter);
      void this.tail.check(shopId);
    });
  }

  /** The log applier's news: the shop's models stand for its log through `position`. */
  readonly reached = (shopId: string, position: number): void => {
    const list = this.#waiting.get(shopId);
    if (list === undefined) return;
    for (const waiter of [...list]) if (waiter.position <= position) waiter.resolve(true);
  };

  #remove(shopId: string, waiter: Waiter): void {
    const list = this.#waiting.get(shopId);
    if (list === undefined) return;
    const i = list.indexOf(waiter);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.#waiting.delete(shopId);
  }
}
