// One ShopEngine per shop, created on first use, with the id of the last event applied to it
// (the log position a snapshot of it stands for). The only way the service reaches models.
import type { EngineConfig } from '../config.js';
import { ShopEngine } from '../engine/shop-engine.js';

interface Entry {
  engine: ShopEngine;
  lastEventId?: string;
}

export class ShopEngines {
  readonly #entries = new Map<string, Entry>();

  constructor(readonly config: EngineConfig) {}

  get(shopId: string): ShopEngine {
    return this.#entry(shopId).engine;
  }

  /** Installs an engine restored from a snapshot taken at `lastEventId`. */
  adopt(shopId: string, engine: ShopEngine, lastEventId: string): void {
    this.#entries.set(shopId, { engine, lastEventId });
  }

  /** Records that events up to `eventId` (in log order) are applied. */
  noteApplied(shopId: string, eventId: string): void {
    this.#entry(shopId).lastEventId = eventId;
  }

  lastEventId(shopId: string): string | undefined {
    return this.#entries.get(shopId)?.lastEventId;
  }

  *entries(): IterableIterator<[string, ShopEngine]> {
    for (const [shopId, entry] of this.#entries) yield [shopId, entry.engine];
  }

  #entry(shopId: string): Entry {
    let entry = this.#entries.get(shopId);
    if (entry === undefined) {
      entry = { engine: new ShopEngine(this.config) };
      this.#entries.set(shopId, entry);
    }
    return entry;
  }
}
