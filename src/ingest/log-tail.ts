// Follows the log that other processes write (the other server processes, a CLI import): what
// they commit is applied here too, in log order, with the same consequences as this process's own
// writes (the applier tells the listeners: answer-cache stamps move, live lists are pushed). A
// process hears of another's commit from its supervisor (see check) and also polls the heads
// every `pollMs`, which finds a CLI import or a lost notification: one read of a table with a key
// per shop.
import type { Log } from '../observability/log.js';
import type { ShopLog } from '../store/shop-log.js';
import type { LogApplier } from './log-applier.js';
import type { ShopEngines } from '../engine/shop-engines.js';

export class LogTail {
  #timer: NodeJS.Timeout | undefined;
  /** Shops being brought forward right now (a check that finds one waits for nothing: the run under way reads to the head). */
  readonly #running = new Map<string, Promise<void>>();
  /** Per shop: when this process first saw a head it had not applied, until it has (for /metrics). */
  readonly #behindSince = new Map<string, number>();
  readonly #gone: ((shopId: string) => void)[] = [];

  constructor(
    readonly log: ShopLog,
    readonly engines: ShopEngines,
    readonly applier: LogApplier,
    readonly report: Log,
    readonly clock: () => number = () => performance.now(),
  ) {}

  start(pollMs: number): void {
    this.#timer = setInterval(() => this.checkAll(), pollMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  /** How far this process's models are behind the log: shops with a log, and positions written but not applied yet (summed over shops). */
  lag(): { shops: number; behind: number } {
    let shops = 0;
    let behind = 0;
    for (const { shopId, head } of this.log.heads(true)) {
      shops++;
      behind += Math.max(0, head - this.engines.position(shopId));
    }
    return { shops, behind };
  }

  /** The shop's log head and first retained position, the position this process's models stand for, and how long it has known it is behind (ms). */
  shopLag(shopId: string): { head: number; start: number; applied: number; behindMs: number } {
    const head = this.log.head(shopId, true);
    const start = this.log.start(shopId);
    const applied = this.engines.position(shopId);
    const since = this.#behindSince.get(shopId);
    return { head, start, applied, behindMs: head > applied && since !== undefined ? Math.max(0, this.clock() - since) : 0 };
  }

  /** Called with a shop whose log is gone (DELETE /api/shop, by any process): its models are to be dropped. */
  onGone(listener: (shopId: string) => void): void {
    this.#gone.push(listener);
  }

  /** Applies what every shop's log holds past its models, and tells of shops whose log went. */
  checkAll(): void {
    const heads = this.log.heads(true);
    for (const { shopId, head } of heads) if (head > this.engines.position(shopId)) void this.check(shopId);
    if (this.#gone.length === 0) return;
    const logged = new Set(heads.map(({ shopId }) => shopId));
    for (const [shopId] of [...this.engines.entries()]) if (!logged.has(shopId) && this.engines.position(shopId) > 0) this.#tellGone(shopId);
  }

  #tellGone(shopId: string): void {
    this.#behindSince.delete(shopId);
    for (const listener of this.#gone) listener(shopId);
  }

  /** Applies the shop's log through its head as it is now; resolves once applied (or failed, which is reported). */
  check(shopId: string): Promise<void> {
    const running = this.#running.get(shopId);
    if (running !== undefined) return running.then(() => this.check(shopId));
    const head = this.log.head(shopId, true);
    // A log that went while the models stand for some of it: the shop was erased.
    if (head === 0 && this.engines.position(shopId) > 0) this.#tellGone(shopId);
    if (head <= this.engines.position(shopId)) return Promise.resolve();
    if (!this.#behindSince.has(shopId)) this.#behindSince.set(shopId, this.clock());
    const run = this.applier
      .applyThrough(shopId, head)
      .then(() => {
        if (this.engines.position(shopId) >= this.log.head(shopId)) this.#behindSince.delete(shopId);
      })
      .catch((error: unknown) => this.report(`applying shop "${shopId}"'s log through ${head} failed: ${String(error)}`, { event: 'apply-failed', level: 'error', shop: shopId, head, error: String(error) }))
      .finally(() => this.#running.delete(shopId));
    this.#running.set(shopId, run);
    return run;
  }
}
