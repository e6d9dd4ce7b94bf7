// Where imports go: straight into LMDB (the server picks them up on its next start) or through a
// running server's API (live at once). Both judge each record alone and report what they refused.
import { parseCatalog } from '../api/product.js';
import { DEFAULT_ENGINE_CONFIG } from '../config.js';
import { EventPipeline } from '../ingest/event-pipeline.js';
import { trackBatch } from '../ingest/track-events.js';
import { CatalogStore } from '../store/catalog-store.js';
import type { Databases } from '../store/database.js';
import { LmdbEventLog } from '../store/event-log.js';

export interface ChunkOutcome {
  accepted: number;
  duplicates: number;
  /** One line per refused record: its position in the file and why. */
  errors: string[];
}

export interface ImportSink {
  readonly productsPerChunk: number;
  readonly eventsPerChunk: number;
  /** `offset` is the file position of the chunk's first record (for messages). */
  products(shopId: string, chunk: unknown[], offset: number): Promise<ChunkOutcome>;
  events(shopId: string, chunk: unknown[], offset: number): Promise<ChunkOutcome>;
}

export class DirectSink implements ImportSink {
  readonly productsPerChunk = 1000;
  readonly eventsPerChunk = 1000;
  readonly #catalog: CatalogStore;
  readonly #pipeline: EventPipeline;

  constructor(dbs: Databases, dedupTtlMs: number) {
    this.#catalog = new CatalogStore(dbs);
    // Stored only, not applied: a server on this data dir replays them (by log position) at its next start.
    this.#pipeline = new EventPipeline(new LmdbEventLog(dbs), undefined, dedupTtlMs);
  }

  async products(shopId: string, chunk: unknown[], offset: number): Promise<ChunkOutcome> {
    const now = Date.now();
    const errors: string[] = [];
    const valid = chunk.flatMap((product, i) => {
      const parsed = parseCatalog({ products: [product] }, DEFAULT_ENGINE_CONFIG.gidPlatform, now);
      if (parsed.ok) return parsed.products;
      errors.push(`record ${offset + i + 1}: ${parsed.errors.map((e) => `${e.pointer.replace('/products/0', '') || '/'} ${e.detail}`).join('; ')}`);
      return [];
    });
    if (valid.length > 0) await this.#catalog.put(shopId, valid);
    return { accepted: valid.length, duplicates: 0, errors };
  }

  async events(shopId: string, chunk: unknown[], offset: number): Promise<ChunkOutcome> {
    // The merchant's own import, like a secret-key call: its customerIds are trusted as they are.
    const outcome = await trackBatch(this.#pipeline, shopId, chunk, Date.now(), (claimed) => claimed);
    return batchOutcome(outcome.results, outcome.accepted, outcome.duplicates, offset);
  }
}

function batchOutcome(results: { index: number; success: boolean; error?: { pointer: string; detail: string } }[], accepted: number, duplicates: number, offset: number): ChunkOutcome {
  const errors = results
    .filter((r) => !r.success)
    .map((r) => `record ${offset + r.index + 1}: ${r.error!.pointer.replace(/^\/events\/\d+/, '') || '/'} ${r.error!.detail}`);
  return { accepted, duplicates, errors };
}

export class HttpSink implements ImportSink {
  readonly productsPerChunk = 1000;
  readonly eventsPerChunk = 100;

  constructor(
    readonly baseUrl: string,
    readonly secretKey: string,
  ) {}

  async #send(method: string, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const res = await fetch(this.baseUrl.replace(/\/+$/, '') + path, {
      method,
      headers: { authorization: `Bearer ${this.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  async products(_shopId: string, chunk: unknown[], offset: number): Promise<ChunkOutcome> {
    const { status, json } = await this.#send('PUT', '/api/products', { products: chunk });
    if (status === 200) return { accepted: chunk.length, duplicates: 0, errors: [] };
    if (status !== 400) throw new Error(`PUT /api/products answered ${status}: ${String(json.detail)}`);
    // The API takes a chunk all or nothing: report why, then send the valid records alone.
    const bad = new Map<number, string>();
    for (const e of (json.errors as { pointer: string; detail: string }[] | undefined) ?? []) {
      const index = Number(/^\/products\/(\d+)/.exec(e.pointer)?.[1] ?? -1);
      bad.set(index, `${bad.has(index) ? bad.get(index) + '; ' : ''}${e.pointer.replace(/^\/products\/\d+/, '') || '/'} ${e.detail}`);
    }
    const valid = chunk.filter((_, i) => !bad.has(i));
    const errors = [...bad].map(([i, detail]) => `record ${offset + i + 1}: ${detail}`);
    if (valid.length === 0 || valid.length === chunk.length) return { accepted: 0, duplicates: 0, errors };
    const retry = await this.#send('PUT', '/api/products', { products: valid });
    if (retry.status !== 200) throw new Error(`PUT /api/products answered ${retry.status}: ${String(retry.json.detail)}`);
    return { accepted: valid.length, duplicates: 0, errors };
  }

  async events(_shopId: string, chunk: unknown[], offset: number): Promise<ChunkOutcome> {
    const { status, json } = await this.#send('POST', '/api/events/batch', { events: chunk });
    if (status !== 200) throw new Error(`POST /api/events/batch answered ${status}: ${String(json.detail)}`);
    return batchOutcome(json.results as never, json.accepted as number, json.duplicates as number, offset);
  }
}
