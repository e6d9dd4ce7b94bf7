// A shop's connection to its Shopify store (PUT/GET/DELETE /api/integrations/shopify): validated,
// then appended to the shop's log like any setting, and the map from a store's domain to its shop
// that webhook deliveries are routed by. One Shopify domain feeds one shop.
import { parseShopifyConnection, type ShopifyConnectionView } from '../api/shopify-integration.js';
import { AppError } from '../errors.js';
import type { ShopChange } from '../store/log-entry.js';
import { shopifyDomainHolder } from '../store/shop-command.js';
import type { ShopStore } from '../store/shop-store.js';

/** How long deliveries signed with the secret before a rotation are still taken: Shopify retries a failed delivery for up to 48 hours. */
export const SECRET_GRACE_MS = 48 * 3_600_000;

const iso = (ms: number) => new Date(ms).toISOString();

export class ShopifyConnections {
  /** Domain → shop, built from the shops' records on first use and dropped when any shop's record changes. */
  #byDomain: Map<string, string> | undefined;

  constructor(readonly shops: ShopStore) {}

  /** Forgets the domain map when a shop's record changed, whichever process wrote it (call from the applied-change listener). */
  changed(change: ShopChange): void {
    if (change.kind === 'shop') this.#byDomain = undefined;
  }

  /** The shop a Shopify domain is connected to, if any (uninstalled ones too: their compliance webhooks still come). */
  shopOf(domain: string): string | undefined {
    if (this.#byDomain === undefined) {
      this.#byDomain = new Map();
      for (const shopId of this.shops.listShops()) {
        const connection = this.shops.getShop(shopId)?.shopify;
        if (connection !== undefined) this.#byDomain.set(connection.domain, shopId);
      }
    }
    return this.#byDomain.get(domain.toLowerCase());
  }

  /**
   * Connects the shop to a Shopify domain, or rotates its webhook secret (the previous one stays
   * valid for SECRET_GRACE_MS), or reconnects after an uninstall. Throws AppError('invalid_integration')
   * for a bad body, ('shopify_domain_taken') when another shop holds the domain.
   */
  async connect(shopId: string, input: unknown, now: number): Promise<ShopifyConnectionView> {
    const parsed = parseShopifyConnection(input);
    if (!parsed.ok) throw new AppError('invalid_integration', `${parsed.errors[0]!.pointer || 'body'} ${parsed.errors[0]!.detail}`, parsed.errors);
    const taken = () => new AppError('shopify_domain_taken', `${parsed.domain} is connected to another shop: disconnect it there first`);
    if (shopifyDomainHolder(this.shops.dbs, parsed.domain, shopId) !== undefined) throw taken();
    await this.shops.changeShopify(shopId, { action: 'connect', domain: parsed.domain, secret: parsed.secret, at: now, graceMs: SECRET_GRACE_MS }, now);
    // Checked again in the write transaction: another shop may have connected the domain meanwhile.
    if (this.shops.getShop(shopId)?.shopify?.domain !== parsed.domain) throw taken();
    return this.view(shopId, now);
  }

  /** Removes the connection: the store's webhooks are refused (401) from then on. */
  async disconnect(shopId: string, now: number): Promise<ShopifyConnectionView> {
    await this.shops.changeShopify(shopId, { action: 'disconnect' }, now);
    return this.view(shopId, now);
  }

  /** What GET shows: never a secret. */
  view(shopId: string, now: number): ShopifyConnectionView {
    const connection = this.shops.getShop(shopId)?.shopify;
    if (connection === undefined) return { connected: false, dataRequests: [] };
    const view: ShopifyConnectionView = {
      connected: connection.uninstalledAt === undefined,
      shopDomain: connection.domain,
      connectedAt: iso(connection.connectedAt),
      dataRequests: (connection.dataRequests ?? []).map((r) => ({ customerId: r.customerId, requestId: r.requestId, requestedAt: iso(r.requestedAt), export: `/api/customers/${encodeURIComponent(r.customerId)}` })),
    };
    if (connection.uninstalledAt !== undefined) view.uninstalledAt = iso(connection.uninstalledAt);
    if (connection.previousUntil !== undefined && connection.previousUntil > now) view.previousSecretValidUntil = iso(connection.previousUntil);
    return view;
  }
}
