// Who is told of what the log applier applied: live lists to push, key caches to drop, running
// experiments to switch. Every process tells its own, whichever process wrote the entry.
import type { TrackedEvent } from '../api/event.js';
import type { ShopChange } from '../store/log-entry.js';
import type { AppliedListeners } from './log-applier.js';

export class LogListeners implements AppliedListeners {
  readonly #events: ((shopId: string, events: readonly TrackedEvent[]) => void)[] = [];
  readonly #changes: ((shopId: string, change: ShopChange) => void)[] = [];
  readonly #positions: ((shopId: string, position: number) => void)[] = [];

  /** Called after each run of events is applied. */
  onEvents(listener: (shopId: string, events: readonly TrackedEvent[]) => void): void {
    this.#events.push(listener);
  }

  /** Called after each change is applied, in the order the listeners were added. */
  onChange(listener: (shopId: string, change: ShopChange) => void): void {
    this.#changes.push(listener);
  }

  /** Called once the shop's models stand for its log through a position. */
  onPosition(listener: (shopId: string, position: number) => void): void {
    this.#positions.push(listener);
  }

  events(shopId: string, events: readonly TrackedEvent[]): void {
    for (const listener of this.#events) listener(shopId, events);
  }

  change(shopId: string, change: ShopChange): void {
    for (const listener of this.#changes) listener(shopId, change);
  }

  position(shopId: string, position: number): void {
    for (const listener of this.#positions) listener(shopId, position);
  }
}
