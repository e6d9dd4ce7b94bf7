// Where imports go: straight into LMDB (the server picks them up on its next start) or through a
// running server's API (live at once). Both judge each record alone and report what they refused.
import { MAX_PRODUCTS_PER_PUT, parseCatalog } from '../api/product.js';
import { DEFAULT_ENGINE_CONFIG } from '../config.js';
import { EventPipeline } from '../ingest/event-pipeline.js';
import { trackBatch } from '../app/track-events.js';
import { CatalogStore } from '../store/catalog-store.js';
import type { Databases } from '../store/database.js';
import { LmdbShopLog } from '../store/shop-log.js';

/** A record the sink refused: its index in the chunk, and why. */
export interface Refused {
  index: number;
  reason: string;
}

export interface ChunkOutcome {
  accepted: number;
  duplicates: number;
  refused: Refused[];
}

export interface ImportSink {
  readonly productsPerChunk: number;
  readonly eventsPerChunk: number;
  /** `shopId` is undefined through the API, where the key names the shop. */
  products(shopId: string | undefined, chunk: unknown[]): Promise<ChunkOutcome>;
  events(shopId: string | undefined, chunk: unknown[]): Promise<ChunkOutcome>;
}

/** A field error as a reason: the pointer inside the record (`/` for the record itself) and the detail. */
function reason(pointer: string, detail: string, prefix: RegExp): string {
  return `${pointer.replace(prefix, '') || '/'} ${detail}`;
}

export class DirectSink implements ImportSink {
  readonly productsPerChunk = 1000;
  readonly eventsPerChunk = 1000;
  readonly #catalog: CatalogStore;
  readonly #pipeline: EventPipeline;

  constructor(dbs: Databases, dedupTtlMs: number, logId: string) {
    const log = new LmdbShopLog(dbs);
    this.#catalog = new CatalogStore(dbs, log);
    // Stored only, not applied: the servers on this data dir apply them from the log.
    this.#pipeline = new EventPipeline(log, undefined, dedupTtlMs, logId);
  }

  async products(shopId: string | undefined, chunk: unknown[]): Promise<ChunkOutcome> {
    const now = Date.now();
    const refused: Refused[] = [];
    const valid = chunk.flatMap((product, index) => {
      const parsed = parseCatalog({ products: [product] }, DEFAULT_ENGINE_CONFIG.gidPlatform, now);
      if (parsed.ok) return parsed.products;
      refused.push({ index, reason: parsed.errors.map((e) => reason(e.pointer, e.detail, /^\/products\/0/)).join('; ') });
      return [];
    });
    // A product older than the stored one (sourceUpdatedAt) is left as it is, like a repeated event.
    const upserted = valid.length > 0 ? (await this.#catalog.put(shopId!, valid, now)).upserted : 0;
    return { accepted: upserted, duplicates: valid.length - upserted, refused };
  }

  async events(shopId: string | undefined, chunk: unknown[]): Promise<ChunkOutcome> {
    // The merchant's own import, like a secret-key call: its customerIds are trusted as they are.
    const outcome = await trackBatch(this.#pipeline, shopId!, chunk, { now: Date.now(), sender: 'secret' });
    return batchOutcome(outcome.results, outcome.accepted, outcome.duplicates);
  }
}

/** A PUT's answer as an outcome: products older than the stored ones count as duplicates. */
function upsertOutcome(json: Record<string, unknown>, sent: number, refused: Refused[]): ChunkOutcome {
  const older = typeof json.olderIgnored === 'number' ? json.olderIgnored : 0;
  return { accepted: sent - older, duplicates: older, refused };
}

function batchOutcome(results: { index: number; success: boolean; error?: { pointer: string; detail: string } }[], accepted: number, duplicates: number): ChunkOutcome {
  const refused = results.filter((r) => !r.success).map((r) => ({ index: r.index, reason: reason(r.error!.pointer, r.error!.detail, /^\/events\/\d+/) }));
  return { accepted, duplicates, refused };
}

/**
 * Imports through a running server's API with the shop's secret key, which names the shop. Any
 * failure that is not a refused record (unreachable, wrong key, not a Pairwise server) stops the
 * import with a message naming the address and the cause.
 */
export class HttpSink implements ImportSink {
  readonly productsPerChunk = MAX_PRODUCTS_PER_PUT;
  readonly eventsPerChunk = 100;
  readonly #base: string;

  constructor(
    baseUrl: string,
    readonly secretKey: string,
  ) {
    // The server's address, or its API's (`$API`, as the README's shell sets it): the routes are appended to the server's.
    this.#base = baseUrl.replace(/\/+$/, '').replace(/\/api$/, '');
  }

  /** The shop the key belongs to on that server (GET /api/shop): checked before anything is sent. */
  async shopId(): Promise<string> {
    const { status, json } = await this.#send('GET', '/api/shop', undefined);
    if (status !== 200 || typeof json.shopId !== 'string') throw new Error(`GET ${this.#base}/api/shop answered ${status}: ${String(json.detail ?? 'no shop id')}`);
    return json.shopId;
  }

  async #send(method: string, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = this.#base + path;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${this.secretKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new Error(`${method} ${url} failed: ${fetchCause(error)}`);
    }
    const text = await res.text();
    let json: Record<string, unknown> | undefined;
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      json = undefined;
    }
    if (json === null || typeof json !== 'object') {
      throw new Error(`${method} ${url} answered ${res.status} ${res.statusText} without a JSON body: is --url the address of a Pairwise server?`);
    }
    if (res.status === 401) throw new Error(`${method} ${url} answered 401: the server knows no such key (--key must be a secret key of a shop on that server)`);
    if (res.status === 403) throw new Error(`${method} ${url} answered 403: ${String(json.detail ?? 'forbidden')} (--key must be the shop's secret key, sk_…)`);
    return { status: res.status, json };
  }

  async products(_shopId: string | undefined, chunk: unknown[]): Promise<ChunkOutcome> {
    const { status, json } = await this.#send('PUT', '/api/products', { products: chunk });
    if (status === 200) return upsertOutcome(json, chunk.length, []);
    if (status !== 400) throw new Error(`PUT ${this.#base}/api/products answered ${status}: ${String(json.detail)}`);
    // The API takes a chunk all or nothing: note why each was refused, then send the valid ones alone.
    const bad = new Map<number, string>();
    for (const e of (json.errors as { pointer: string; detail: string }[] | undefined) ?? []) {
      const index = Number(/^\/products\/(\d+)/.exec(e.pointer)?.[1] ?? -1);
      const why = reason(e.pointer, e.detail, /^\/products\/\d+/);
      bad.set(index, bad.has(index) ? `${bad.get(index)}; ${why}` : why);
    }
    if (bad.size === 0 || bad.has(-1)) throw new Error(`PUT ${this.#base}/api/products answered 400: ${String(json.detail)}`);
    const valid = chunk.filter((_, i) => !bad.has(i));
    const refused = [...bad].map(([index, why]) => ({ index, reason: why }));
    if (valid.length === 0) return { accepted: 0, duplicates: 0, refused };
    const retry = await this.#send('PUT', '/api/products', { products: valid });
    if (retry.status !== 200) throw new Error(`PUT ${this.#base}/api/products answered ${retry.status}: ${String(retry.json.detail)}`);
    return upsertOutcome(retry.json, valid.length, refused);
  }

  async events(_shopId: string | undefined, chunk: unknown[]): Promise<ChunkOutcome> {
    const { status, json } = await this.#send('POST', '/api/events/batch', { events: chunk });
    if (status !== 200) throw new Error(`POST ${this.#base}/api/events/batch answered ${status}: ${String(json.detail)}`);
    return batchOutcome(json.results as never, json.accepted as number, json.duplicates as number);
  }
}

/** Why fetch failed, from undici's cause: ECONNREFUSED, ENOTFOUND, a TLS error… */
function fetchCause(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause as (Error & { code?: string; errors?: (Error & { code?: string })[] }) | undefined;
  if (cause === undefined) return (error as Error).message;
  const code = cause.code ?? cause.errors?.[0]?.code;
  const message = cause.message || cause.errors?.map((e) => e.message).join('; ') || '';
  if (code === undefined) return message || (error as Error).message;
  return message.includes(code) ? message : `${code}${message ? ` (${message})` : ''}`;
}
