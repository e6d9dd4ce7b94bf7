// Who is told of what the log applier applied: live lists to recompute, key caches to drop and
// sockets to check, running experiments to switch, erasures to snapshot. Every process tells its
// own, whichever process wrote the entry; what each change means is decided once (applyChange).
import type { ExperimentRecord } from '../api/experiment.js';
import type { TrackedEvent } from '../api/event.js';
import type { ShopRecord } from '../store/records.js';
import type { AppliedListeners } from './log-applier.js';

type Listener<A extends unknown[]> = (...args: A) => void;

export class LogListeners implements AppliedListeners {
  readonly #events: Listener<[string, readonly TrackedEvent[]]>[] = [];
  readonly #answers: Listener<[string]>[] = [];
  readonly #keys: Listener<[string, boolean]>[] = [];
  readonly #shops: Listener<[string, ShopRecord]>[] = [];
  readonly #experiments: Listener<[string, ExperimentRecord]>[] = [];
  readonly #erasures: Listener<[string]>[] = [];
  readonly #positions: Listener<[string, number]>[] = [];

  /** Called after each run of events is applied. */
  onEvents(listener: Listener<[shopId: string, events: readonly TrackedEvent[]]>): void {
    this.#events.push(listener);
  }

  /** Called after events, or a change that may alter the shop's answers, were applied. */
  onAnswersChanged(listener: Listener<[shopId: string]>): void {
    this.#answers.push(listener);
  }

  /** Called after the shop's keys or record changed, in the order the listeners were added (a cache cleared before the sockets are checked). */
  onKeysChanged(listener: Listener<[shopId: string, revoked: boolean]>): void {
    this.#keys.push(listener);
  }

  /** Called after the shop's record changed, with the record as it is now. */
  onShopChanged(listener: Listener<[shopId: string, record: ShopRecord]>): void {
    this.#shops.push(listener);
  }

  onExperimentChanged(listener: Listener<[shopId: string, record: ExperimentRecord]>): void {
    this.#experiments.push(listener);
  }

  onCustomerErased(listener: Listener<[shopId: string]>): void {
    this.#erasures.push(listener);
  }

  /** Called once the shop's models stand for its log through a position. */
  onPosition(listener: Listener<[shopId: string, position: number]>): void {
    this.#positions.push(listener);
  }

  events(shopId: string, events: readonly TrackedEvent[]): void {
    for (const listener of this.#events) listener(shopId, events);
    this.answersChanged(shopId);
  }

  answersChanged(shopId: string): void {
    for (const listener of this.#answers) listener(shopId);
  }

  keysChanged(shopId: string, revoked: boolean): void {
    for (const listener of this.#keys) listener(shopId, revoked);
  }

  shopChanged(shopId: string, record: ShopRecord): void {
    for (const listener of this.#shops) listener(shopId, record);
  }

  experimentChanged(shopId: string, record: ExperimentRecord): void {
    for (const listener of this.#experiments) listener(shopId, record);
  }

  customerErased(shopId: string): void {
    for (const listener of this.#erasures) listener(shopId);
  }

  position(shopId: string, position: number): void {
    for (const listener of this.#positions) listener(shopId, position);
  }
}
