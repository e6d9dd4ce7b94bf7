// What a shop is and holds, read for the merchant (GET /api/shop, GET /api/shop/model, the
// dashboard's overview) and the operator (/metrics): its record's settings (never a secret), the
// counts of its models in this process, and what personalized runs with.
import type { FeedView } from '../api/integrations.js';
import type { ShopInfo, ShopModel } from '../api/responses.js';
import type { EngineConfig } from '../engine/engine-config.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import { AppError } from '../errors.js';
import type { ShopStore } from '../store/shop-store.js';
import type { WebhookConnection } from '../store/webhook-connection.js';
import type { StorefrontQuota } from '../store/storefront-quota.js';
import { feedView } from './feed-pulls.js';
import { shopModel } from './shop-model.js';
import type { ShopSettings } from './shop-settings.js';

const HOUR_MS = 3_600_000;

/** The store a connection names while it is installed. */
const connectedSource = (connection: WebhookConnection | undefined): string | null => (connection === undefined || connection.uninstalledAt !== undefined ? null : connection.source);

/** A shop's own record as GET /api/shop shows it: settings and counts of keys, never a secret. */
export interface ShopRecordView {
  /** Epoch ms. */
  createdAt: number;
  demo: boolean;
  allowedOrigins: readonly string[];
  /** Customer-token signing secrets the shop accepts (0-2). */
  customerTokenSecrets: number;
  appProxy: boolean;
  /** The registered widget ids (PUT /api/shop/widgets). */
  widgets: readonly string[];
  /** The ISO 4217 code of the shop's prices (PUT /api/shop/currency); null: not set. */
  currency: string | null;
  keys: { public: number; secret: number };
}

/** What this process's models of a shop hold. */
import type { ShopCounts } from '../engine/shop-face.js';

export type { ShopCounts };

/** What the shop's public key stored today (UTC, every server process together) against its daily budget (0: unbounded). */
export interface StorefrontToday {
  events: number;
  bytes: number;
  eventsPerDay: number;
  bytesPerDay: number;
}

/** The dashboard's overview of a shop. */
export interface ShopGlance {
  shopId: string;
  products: number;
  eventsApplied: number;
  shoppersTracked: number;
  storefront: StorefrontToday;
  /** What personalized runs with and why. */
  model: ShopModel;
  /** The ISO 4217 code of the shop's prices (PUT /api/shop/currency); null: amounts are shown without one. */
  currency: string | null;
  /** The stores connected (a Shopify domain, a WooCommerce address; null: none, or uninstalled) and the product feed. */
  integrations: { shopify: string | null; woocommerce: string | null; feed: FeedView };
}

export interface ShopStatusOptions {
  shops: ShopStore;
  engines: ShopEngines;
  settings: ShopSettings;
  /** The engine's settings as configured: GET /api/shop shows them. */
  engineConfig: EngineConfig;
  /** The configured EASE λ (PAIRWISE_EASE_LAMBDA), the default's. */
  lambda: number;
  /** The storefront budget's day (PAIRWISE_STOREFRONT_*_PER_DAY) and what a shop's public key stored today. */
  storefrontQuota: StorefrontQuota;
  storefrontUsage: (shopId: string) => { events: number; bytes: number };
}

export class ShopStatus {
  readonly shops: ShopStore;
  readonly engines: ShopEngines;
  readonly #options: ShopStatusOptions;

  constructor(options: ShopStatusOptions) {
    this.shops = options.shops;
    this.engines = options.engines;
    this.#options = options;
  }

  /** The shop's record as shown; undefined for a shop that has none (its keys outlived it). */
  record(shopId: string): ShopRecordView | undefined {
    const shop = this.shops.getShop(shopId);
    if (shop === undefined) return undefined;
    const keys = { public: 0, secret: 0 };
    for (const key of this.shops.listKeys(shopId)) keys[key.kind]++;
    return {
      createdAt: shop.createdAt,
      demo: shop.demo === true,
      allowedOrigins: shop.allowedOrigins,
      customerTokenSecrets: shop.signingSecrets?.length ?? 0,
      appProxy: shop.appProxySecret !== undefined,
      widgets: shop.widgets ?? [],
      currency: shop.currency ?? null,
      keys,
    };
  }

  counts(shopId: string): ShopCounts {
    return this.engines.face(shopId).counts();
  }

  /** What personalized runs with in the shop and why. */
  model(shopId: string): ShopModel {
    return shopModel(shopId, this.engines.face(shopId), this.#options.lambda);
  }

  storefront(shopId: string): StorefrontToday {
    const { events, bytes } = this.#options.storefrontUsage(shopId);
    return { events, bytes, ...this.#options.storefrontQuota };
  }

  glance(shopId: string): ShopGlance {
    const counts = this.counts(shopId);
    const record = this.shops.getShop(shopId);
    return {
      shopId,
      products: counts.products,
      eventsApplied: counts.events,
      shoppersTracked: counts.shoppers,
      storefront: this.storefront(shopId),
      model: this.model(shopId),
      currency: record?.currency ?? null,
      integrations: {
        shopify: connectedSource(record?.shopify),
        woocommerce: connectedSource(record?.woocommerce),
        feed: feedView(record?.feed),
      },
    };
  }

  /** GET /api/shop: the shop, what it holds and the settings it runs with; throws not_found for a shop without a record. */
  info(shopId: string): ShopInfo {
    const record = this.record(shopId);
    if (record === undefined) throw new AppError('not_found', `shop "${shopId}" has no record`);
    const engine = this.engines.face(shopId);
    const counts = engine.counts();
    let collections = 0;
    for (const _ of engine.catalogReader.collectionIds()) collections++;
    const models = this.#options.engineConfig;
    return {
      shopId,
      createdAt: new Date(record.createdAt).toISOString(),
      demo: record.demo,
      counts: {
        products: counts.products,
        collections,
        events: counts.events,
        // Erased customers and sessions are gone, though their slots wait for reuse.
        shoppers: counts.shoppers,
        customers: counts.customers,
        sessions: counts.sessions,
        pendingEvents: counts.pendingEvents,
        keys: record.keys,
      },
      settings: {
        allowedOrigins: [...record.allowedOrigins],
        customerTokenSecrets: record.customerTokenSecrets,
        appProxy: record.appProxy,
        widgets: [...record.widgets],
        currency: record.currency,
        ...this.#options.settings.recency(shopId),
        eventWeights: models.eventWeights,
        trendingHalfLifeHours: models.trendingHalfLifeMs / HOUR_MS,
        maxCustomers: models.maxCustomers,
        maxSessions: models.maxSessions,
        maxPendingEvents: models.maxPendingEvents,
      },
    };
  }
}
