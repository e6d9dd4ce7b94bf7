// One ShopEngine per shop, created on first use, with the log position its models stand for
// (every event at or before it applied, none after: what a snapshot of it records). The only way
// the service reaches models.
// A snapshot copies a shop's models over several turns of the event loop, and a catch-up with
// another process's events applies them over several turns; meanwhile the shop is held: other
// writers await `changesWait` before they change its models (and before they acknowledge).
import type { ShopFace } from './shop-face.js';
import type { EngineConfig } from './engine-config.js';
import { ShopEngine } from './shop-engine.js';

interface Entry {
  engine: ShopEngine;
  /** 0: no event applied yet. */
  position: number;
  /** While a snapshot copies the models: resolves when it is done with them. */
  held?: Promise<void>;
}

export class ShopEngines {
  readonly #entries = new Map<string, Entry>();

  constructor(readonly config: EngineConfig) {}

  get(shopId: string): ShopEngine {
    return this.#entry(shopId).engine;
  }

  /** The shop's models as callers outside the engine see them: counts, reads and commands (created when new). */
  face(shopId: string): ShopFace {
    return this.#entry(shopId).engine;
  }

  /** Installs an engine restored from a snapshot taken at log `position` (a hold under way stays). */
  adopt(shopId: string, engine: ShopEngine, position: number): void {
    const entry = this.#entries.get(shopId);
    if (entry === undefined) this.#entries.set(shopId, { engine, position });
    else Object.assign(entry, { engine, position });
  }

  /** Records that the shop's events up to log `position` are applied, each of them. */
  noteApplied(shopId: string, position: number): void {
    this.#entry(shopId).position = position;
  }

  /**
   * Keeps changes to the shop's models waiting (see changesWait) until the returned release is
   * called. Writers that were waiting then change the models in the order they began to wait.
   */
  hold(shopId: string): () => void {
    const entry = this.#entry(shopId);
    if (entry.held !== undefined) throw new Error(`shop "${shopId}" is already held`);
    let release!: () => void;
    entry.held = new Promise<void>((resolve) => (release = resolve));
    return () => {
      entry.held = undefined;
      release();
    };
  }

  /** What a writer awaits before it changes the shop's models; undefined when it may now. */
  changesWait(shopId: string): Promise<void> | undefined {
    return this.#entries.get(shopId)?.held;
  }

  /** The log position the shop's models stand for; 0 when none is applied. */
  position(shopId: string): number {
    return this.#entries.get(shopId)?.position ?? 0;
  }

  /** Forgets the shop (it was erased): a later get starts an empty engine. */
  drop(shopId: string): void {
    this.#entries.delete(shopId);
  }

  *entries(): IterableIterator<[string, ShopEngine]> {
    for (const [shopId, entry] of this.#entries) yield [shopId, entry.engine];
  }

  #entry(shopId: string): Entry {
    let entry = this.#entries.get(shopId);
    if (entry === undefined) {
      entry = { engine: new ShopEngine(this.config), position: 0 };
      this.#entries.set(shopId, entry);
    }
    return entry;
  }
}
