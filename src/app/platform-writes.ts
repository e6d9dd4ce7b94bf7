// What the platforms' webhook use cases share once a delivery is admitted: its JSON read, its
// commands appended once per delivery id (durably, the log applied through them before the answer),
// its catalog records upserted as the REST API would, its orders' purchases tracked as the merchant's
// own events, and a count of deliveries by platform, topic and outcome.
import type { WireEvent } from '../api/event.js';
import type { DeliveryAnswer } from '../api/integrations.js';
import type { WireProduct } from '../api/product.js';
import { parseCatalog } from '../api/product.js';
import { AppError } from '../errors.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { LogApplier } from '../ingest/log-applier.js';
import { deliveryKey, type ShopCommand } from '../store/shop-command.js';
import type { ShopLog } from '../store/shop-log.js';
import type { ShopStore } from '../store/shop-store.js';
import { trackBatch } from './track-events.js';

/** What a delivery did (see DeliveryAnswer). */
export type DeliveryOutcome = DeliveryAnswer['outcome'];

/** Longest delivery id kept (Shopify's are UUIDs, WooCommerce's hashes). */
const MAX_DELIVERY_ID = 128;

export interface PlatformWritesDeps {
  shops: ShopStore;
  log: ShopLog;
  applier: LogApplier;
  pipeline: EventPipeline;
  gidPlatform: string;
}

/** Deliveries of one shop, platform, topic and outcome since start. */
export interface DeliveryCount {
  shopId: string;
  platform: string;
  topic: string;
  outcome: DeliveryOutcome | 'refused';
  count: number;
}

export function invalidDelivery(topic: string, what = 'a body that is not its payload'): AppError {
  return new AppError('invalid_webhook', `${topic}: ${what}`);
}

export class PlatformWrites {
  /** Deliveries taken since start, by shop, platform, topic and outcome (for /metrics). */
  readonly counts = new Map<string, DeliveryCount>();

  constructor(readonly deps: PlatformWritesDeps) {}

  /** Takes a delivery through `take`, counting what it did: its outcome, or `refused` when its body was refused. */
  async counted(shopId: string, platform: string, topics: ReadonlySet<string>, topic: string, take: () => Promise<DeliveryOutcome>): Promise<DeliveryOutcome> {
    try {
      const outcome = await take();
      this.#count(shopId, platform, topics, topic, outcome);
      return outcome;
    } catch (error) {
      if (error instanceof AppError && (error.code === 'invalid_json' || error.code === 'invalid_webhook')) this.#count(shopId, platform, topics, topic, 'refused');
      throw error;
    }
  }

  /** A topic outside `topics` (the platform's own, unbounded) is counted as `other`. */
  #count(shopId: string, platform: string, topics: ReadonlySet<string>, topic: string, outcome: DeliveryCount['outcome']): void {
    const label = topics.has(topic) ? topic : 'other';
    const key = `${shopId}\u0000${platform}\u0000${label}\u0000${outcome}`;
    const counted = this.counts.get(key);
    if (counted !== undefined) counted.count++;
    else this.counts.set(key, { shopId, platform, topic: label, outcome, count: 1 });
  }

  /** The delivery's body as JSON; AppError('invalid_json') when it is not. */
  json(body: Uint8Array): unknown {
    try {
      return JSON.parse(Buffer.from(body).toString('utf8'));
    } catch {
      throw new AppError('invalid_json', "the delivery's body is not JSON");
    }
  }

  /**
   * Appends `command` once per delivery id (`<platform>:<id>`; without one, every time) and applies the
   * log through it; resolves with what it did. AppError('unavailable') when the storage refuses.
   */
  async command(shopId: string, command: ShopCommand, delivery: string | undefined, now: number): Promise<DeliveryOutcome> {
    const once: ShopCommand = delivery === undefined || delivery.length > MAX_DELIVERY_ID ? command : { kind: 'once', deliveryId: delivery, command };
    // Only to answer `duplicate` without a commit: the append's transaction checks again.
    if (once.kind === 'once' && this.deps.shops.dbs.dedup.get([shopId, deliveryKey(once.deliveryId)]) !== undefined) return 'duplicate';
    let done;
    try {
      done = await this.deps.log.append(shopId, once, now);
    } catch (cause) {
      throw new AppError('unavailable', `the delivery could not be stored: ${(cause as Error).message}`);
    }
    if (done === undefined) return 'unchanged';
    await this.deps.applier.applyThrough(shopId, done.position);
    return 'applied';
  }

  /** Upserts a product as PUT /api/products would (older than the stored one by its source time: nothing); AppError('invalid_webhook') for a record the catalog refuses. */
  products(shopId: string, topic: string, record: WireProduct, options: { keepCollections?: boolean; delivery?: string }, now: number): Promise<DeliveryOutcome> {
    const parsed = parseCatalog({ products: [record] }, this.deps.gidPlatform, now);
    if (!parsed.ok) throw new AppError('invalid_webhook', `${topic}: ${parsed.errors[0]!.pointer} ${parsed.errors[0]!.detail}`, parsed.errors);
    return this.command(shopId, { kind: 'put-products', products: parsed.products, ...(options.keepCollections ? { keepCollections: true } : {}) }, options.delivery, now);
  }

  /** Tracks an order's purchases, signed by the platform so trusted like the merchant's own server; `duplicate` when its lines were all taken before. */
  async purchases(shopId: string, topic: string, events: WireEvent[], now: number): Promise<DeliveryOutcome> {
    const outcome = await trackBatch(this.deps.pipeline, shopId, events, { now, sender: 'secret' });
    if (outcome.rejected > 0) {
      const refused = outcome.results.find((r) => !r.success);
      throw new AppError('invalid_webhook', `${topic}: ${refused !== undefined && !refused.success ? `${refused.error.pointer} ${refused.error.detail}` : 'an event was refused'}`);
    }
    return outcome.accepted > 0 ? 'applied' : 'duplicate';
  }
}
