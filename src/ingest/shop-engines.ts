// One ShopEngine per shop, created on first use. The only way the rest of the service reaches models.
import type { EngineConfig } from '../config.js';
import { ShopEngine } from '../engine/shop-engine.js';

export class ShopEngines {
  readonly #engines = new Map<string, ShopEngine>();

  constructor(readonly config: EngineConfig) {}

  get(shopId: string): ShopEngine {
    let engine = this.#engines.get(shopId);
    if (engine === undefined) {
      engine = new ShopEngine(this.config);
      this.#engines.set(shopId, engine);
    }
    return engine;
  }

  entries(): IterableIterator<[string, ShopEngine]> {
    return this.#engines.entries();
  }
}
