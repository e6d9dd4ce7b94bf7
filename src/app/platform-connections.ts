// A shop's connection to a platform's store (PUT/GET/DELETE /api/integrations/shopify and
// /woocommerce): validated, then appended to the shop's log like any setting; and the map from a
// store (a Shopify domain, a WooCommerce address) to its shop that webhook deliveries are routed by.
// One store feeds one shop.
import { storeUrlKey, type ConnectionSettings, type ConnectionView } from '../api/integrations.js';
import { AppError } from '../errors.js';
import { connectionHolder } from '../store/shop-command.js';
import type { ShopStore } from '../store/shop-store.js';
import type { Platform, WebhookConnection } from '../store/webhook-connection.js';

/** How long deliveries signed with the secret before a rotation are still taken: Shopify retries a failed delivery for up to 48 hours. */
export const SECRET_GRACE_MS = 48 * 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

interface PlatformRules {
  /** A delivery's source header as the connection keeps it (undefined: not one). */
  sourceKey: (header: string) => string | undefined;
  /** What the connection's source is called on the wire, in GET. */
  field: 'shopDomain' | 'storeUrl';
  what: string;
}

const PLATFORMS: Record<Platform, PlatformRules> = {
  shopify: { sourceKey: (header) => header.trim().toLowerCase(), field: 'shopDomain', what: 'Shopify domain' },
  woocommerce: { sourceKey: storeUrlKey, field: 'storeUrl', what: 'WooCommerce store' },
};

export class PlatformConnections {
  /** Source → shop, built from the shops' records on first use and dropped when any shop's record changes. */
  #bySource: Map<string, string> | undefined;
  readonly #rules: PlatformRules;

  constructor(
    readonly shops: ShopStore,
    readonly platform: Platform,
  ) {
    this.#rules = PLATFORMS[platform];
  }

  /** Forgets the map when a shop's record changed, whichever process wrote it (the applied-change listener calls it). */
  shopChanged(): void {
    this.#bySource = undefined;
  }

  /** The shop and connection a delivery's source header names, if any (uninstalled ones too: their compliance webhooks still come). */
  find(sourceHeader: string | undefined): { shopId: string; connection: WebhookConnection } | undefined {
    const source = sourceHeader === undefined ? undefined : this.#rules.sourceKey(sourceHeader);
    if (source === undefined) return undefined;
    if (this.#bySource === undefined) {
      this.#bySource = new Map();
      for (const shopId of this.shops.listShops()) {
        const connection = this.shops.getShop(shopId)?.[this.platform];
        if (connection !== undefined) this.#bySource.set(connection.source, shopId);
      }
    }
    const shopId = this.#bySource.get(source);
    const connection = shopId === undefined ? undefined : this.shops.getShop(shopId)?.[this.platform];
    return connection === undefined ? undefined : { shopId: shopId!, connection };
  }

  /**
   * Connects the shop to a store, rotates its webhook secret (the previous one stays valid for
   * SECRET_GRACE_MS), or reconnects after an uninstall. Throws AppError('integration_taken') when
   * another shop holds the store.
   */
  async connect(shopId: string, parsed: ConnectionSettings, now: number): Promise<ConnectionView> {
    const taken = () => new AppError('integration_taken', `the ${this.#rules.what} ${parsed.source} is connected to another shop: disconnect it there first`);
    if (connectionHolder(this.shops.dbs, this.platform, parsed.source, shopId) !== undefined) throw taken();
    await this.shops.changeConnection(shopId, this.platform, { action: 'connect', source: parsed.source, secret: parsed.secret, at: now, graceMs: SECRET_GRACE_MS }, now);
    // Checked again in the write transaction: another shop may have connected the store meanwhile.
    if (this.shops.getShop(shopId)?.[this.platform]?.source !== parsed.source) throw taken();
    return this.view(shopId, now);
  }

  /** Removes the connection: the store's webhooks are refused (401) from then on. */
  async disconnect(shopId: string, now: number): Promise<ConnectionView> {
    await this.shops.changeConnection(shopId, this.platform, { action: 'disconnect' }, now);
    return this.view(shopId, now);
  }

  /** What GET shows: never a secret. */
  view(shopId: string, now: number): ConnectionView {
    const connection = this.shops.getShop(shopId)?.[this.platform];
    if (connection === undefined) return this.platform === 'shopify' ? { connected: false, dataRequests: [] } : { connected: false };
    const view: ConnectionView = { connected: connection.uninstalledAt === undefined, [this.#rules.field]: connection.source, connectedAt: iso(connection.connectedAt) };
    if (connection.uninstalledAt !== undefined) view.uninstalledAt = iso(connection.uninstalledAt);
    if (connection.previousUntil !== undefined && connection.previousUntil > now) view.previousSecretValidUntil = iso(connection.previousUntil);
    if (this.platform === 'shopify') {
      view.dataRequests = (connection.dataRequests ?? []).map((r) => ({ customerId: r.customerId, requestId: r.requestId, requestedAt: iso(r.requestedAt), export: `/api/customers/${encodeURIComponent(r.customerId)}` }));
    }
    return view;
  }
}
