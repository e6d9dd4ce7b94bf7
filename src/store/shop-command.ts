// What a writer asks of a shop's log, as data: a command is turned into the change it makes (or
// none) inside the write transaction that appends it, against the tables as they are then. Being
// data, not a closure, a command can be carried by any log: appended to LMDB in the writer's own
// transaction, or published to a replicated log and turned into its change by every node as it
// materializes the log, in log order, with the same result everywhere.
import type { ExperimentRecord } from '../api/experiment.js';
import type { Recency } from '../engine/engine-config.js';
import { sameProduct, type Product } from '../engine/product.js';
import { eraseCustomerEvents } from './customer-erasure.js';
import { shopRange, type ApiKeyRecord, type Databases, type ShopRecord } from './database.js';
import { MAX_RULES_PER_SHOP, type Rule } from '../engine/rules/rule.js';
import type { ShopChange } from './log-entry.js';
import { nextFeedSettings, type FeedAction } from './feed-settings.js';
import { nextConnection, type ConnectionAction, type Platform } from './webhook-connection.js';

/** One field of a shop's record set to a new value. */
export type ShopUpdate =
  | { field: 'allowedOrigins'; origins: readonly string[] }
  /** Made the newest signing secret; the one before it stays valid, any older one is dropped. */
  | { field: 'signingSecret'; secret: string }
  /** The Shopify app proxy's shared secret; absent: removed. */
  | { field: 'appProxySecret'; secret?: string }
  | { field: 'widgets'; widgets: readonly string[] }
  | { field: 'recency'; recency: Recency }
  | { field: 'currency'; currency: string }
  /** A change of a platform connection; a connect to a store another shop holds changes nothing. */
  | { field: 'connection'; platform: Platform; change: ConnectionAction }
  | { field: 'feed'; change: FeedAction };

export type ShopCommand =
  /**
   * Upserts: a product whose sourceUpdatedAt is older than the stored one's is left out (nothing when
   * every one is). With `keepCollections`, each keeps the collections stored for it (a platform's
   * product update does not carry them).
   */
  | { kind: 'put-products'; products: readonly Product[]; keepCollections?: boolean }
  /** Nothing when the product is not in the catalog. */
  | { kind: 'remove-product'; productId: string }
  /** Nothing when the shop exists. */
  | { kind: 'create-shop'; record: ShopRecord }
  /** Nothing when the shop does not exist or already has that value. */
  | { kind: 'update-shop'; update: ShopUpdate }
  /** Nothing when the key (by its hash) is already registered. */
  | { kind: 'add-key'; hash: string; record: ApiKeyRecord }
  /** Nothing when no such key is registered. */
  | { kind: 'revoke-key'; hash: string }
  /** Numbered one past the shop's last experiment. */
  | { kind: 'create-experiment'; fields: Omit<ExperimentRecord, 'number'> }
  | { kind: 'put-experiment'; record: ExperimentRecord }
  /** Adds or replaces the rule of its id; nothing when it is new and the shop holds MAX_RULES_PER_SHOP. */
  | { kind: 'put-rule'; rule: Rule }
  /** Nothing when the shop has no such rule. */
  | { kind: 'remove-rule'; ruleId: string }
  /** The customer's events and their sessions' rewritten as erased, their index rows and messageIds gone (customer-erasure.ts). */
  | { kind: 'erase-customer'; customerId: string }
  /** The order's revenue stops counting (a platform's cancellation); a change whether or not the order was seen: it may come first. */
  | { kind: 'cancel-order'; orderId: string }
  /**
   * `command`, unless a command with the same delivery id (a platform's webhook delivery) was taken
   * before: the id is written to the dedup index in the same transaction, whatever the command changes.
   */
  | { kind: 'once'; deliveryId: string; command: ShopCommand };

/** The shop's record with `update` applied; undefined when that changes nothing. */
export function updatedRecord(shop: ShopRecord, update: ShopUpdate): ShopRecord | undefined {
  switch (update.field) {
    case 'allowedOrigins':
      return { ...shop, allowedOrigins: [...update.origins] };
    case 'signingSecret': {
      const current = shop.signingSecrets ?? [];
      return current.includes(update.secret) ? undefined : { ...shop, signingSecrets: [update.secret, ...current.slice(0, 1)] };
    }
    case 'appProxySecret': {
      const { appProxySecret: _previous, ...rest } = shop;
      return update.secret === undefined ? rest : { ...rest, appProxySecret: update.secret };
    }
    case 'widgets':
      return { ...shop, widgets: [...update.widgets] };
    case 'recency':
      return (shop.recency ?? 'auto') === update.recency ? undefined : { ...shop, recency: update.recency };
    case 'currency':
      return shop.currency === update.currency ? undefined : { ...shop, currency: update.currency };
    case 'feed': {
      const next = nextFeedSettings(shop.feed, update.change);
      if (next === shop.feed) return undefined;
      const { feed: _previous, ...rest } = shop;
      return next === undefined ? rest : { ...rest, feed: next };
    }
    case 'connection': {
      const current = shop[update.platform];
      const next = nextConnection(current, update.change);
      if (next === current) return undefined;
      const { [update.platform]: _previous, ...rest } = shop;
      return next === undefined ? rest : { ...rest, [update.platform]: next };
    }
  }
}

/**
 * `products` with the stored collections when `keepCollections`, less those that would not change the
 * stored product: older by sourceUpdatedAt, or of the same sourceUpdatedAt and the same in every
 * field (a platform's update delivered twice, a sync run again), or a feed's item the same in every
 * field as the feed's last pull stored it (a feed says nothing of when its items changed, and most of
 * a pull is unchanged). Otherwise, without source times, every upsert counts.
 */
function newerProducts(dbs: Databases, shopId: string, products: readonly Product[], keepCollections: boolean): readonly Product[] {
  let kept: Product[] | undefined;
  products.forEach((product, index) => {
    const stored = dbs.products.get([shopId, product.id]);
    const candidate = keepCollections ? { ...product, collections: stored?.collections ?? [] } : product;
    const timed = stored?.sourceUpdatedAt !== undefined && product.sourceUpdatedAt !== undefined;
    const stale =
      (timed && (product.sourceUpdatedAt! < stored!.sourceUpdatedAt! || (product.sourceUpdatedAt === stored!.sourceUpdatedAt && sameProduct(candidate, stored!)))) ||
      (product.source === 'feed' && stored !== undefined && sameProduct(candidate, stored));
    const next = stale ? undefined : candidate;
    if (next !== product && kept === undefined) kept = products.slice(0, index);
    if (kept !== undefined && next !== undefined) kept.push(next);
  });
  return kept ?? products;
}

/** The dedup index's key of a platform's delivery id: a namespace of its own ('d:'), apart from messageIds ('p:' and 's:'). */
export function deliveryKey(deliveryId: string): string {
  return 'd:' + deliveryId;
}

/**
 * The shop other than `except` connected to the platform's store `source`, if any: one store's
 * webhooks go to one shop. A scan of the shops' records, made only when a shop connects.
 */
export function connectionHolder(dbs: Databases, platform: Platform, source: string, except?: string): string | undefined {
  for (const { key, value } of dbs.shops.getRange()) if (key !== except && value[platform]?.source === source) return key;
  return undefined;
}

/**
 * The change `command` makes to the shop as the tables are now (undefined: none); call inside the
 * write transaction that appends it. Reads only the tables, so every node that materializes the
 * same log in the same order gets the same change. An erasure also rewrites the customer's events
 * there and then (its change says how many).
 */
export function buildChange(dbs: Databases, shopId: string, command: ShopCommand, at: number): ShopChange | undefined {
  switch (command.kind) {
    case 'put-products': {
      const products = newerProducts(dbs, shopId, command.products, command.keepCollections === true);
      return products.length === 0 ? undefined : { kind: 'products', products };
    }
    case 'remove-product':
      return dbs.products.get([shopId, command.productId]) === undefined ? undefined : { kind: 'product-removed', productId: command.productId };
    case 'create-shop':
      return dbs.shops.get(shopId) === undefined ? { kind: 'shop', record: command.record } : undefined;
    case 'update-shop': {
      const update = command.update;
      if (update.field === 'connection' && update.change.action === 'connect' && connectionHolder(dbs, update.platform, update.change.source, shopId) !== undefined) return undefined;
      const shop = dbs.shops.get(shopId);
      const record = shop === undefined ? undefined : updatedRecord(shop, command.update);
      return record === undefined ? undefined : { kind: 'shop', record };
    }
    case 'add-key':
      return dbs.apiKeys.get(command.hash) === undefined ? { kind: 'key-added', hash: command.hash, record: command.record } : undefined;
    case 'revoke-key':
      return dbs.apiKeys.get(command.hash) === undefined ? undefined : { kind: 'key-revoked', hash: command.hash };
    case 'create-experiment': {
      let last = 0;
      for (const key of dbs.experiments.getKeys({ start: [shopId, 2 ** 31], end: [shopId, 0], reverse: true, limit: 1 })) last = key[1];
      return { kind: 'experiment', record: { ...command.fields, number: last + 1 } };
    }
    case 'put-experiment':
      return { kind: 'experiment', record: command.record };
    case 'put-rule': {
      // Checked here, in the write transaction, so writers in several processes cannot pass the bound together.
      const isNew = dbs.rules.get([shopId, command.rule.id]) === undefined;
      if (isNew && dbs.rules.getKeysCount(shopRange(shopId)) >= MAX_RULES_PER_SHOP) return undefined;
      return { kind: 'rule', rule: command.rule };
    }
    case 'remove-rule':
      return dbs.rules.get([shopId, command.ruleId]) === undefined ? undefined : { kind: 'rule-removed', ruleId: command.ruleId };
    case 'cancel-order':
      return { kind: 'order-cancelled', orderId: command.orderId };
    case 'once': {
      const key: [string, string] = [shopId, deliveryKey(command.deliveryId)];
      if (dbs.dedup.get(key) !== undefined) return undefined;
      dbs.dedup.put(key, { eventId: '', at });
      return buildChange(dbs, shopId, command.command, at);
    }
    case 'erase-customer': {
      const erased = eraseCustomerEvents(dbs, shopId, command.customerId, at);
      return { kind: 'customer-erased', customerId: command.customerId, sessionIds: erased.sessionIds, events: erased.events };
    }
  }
}
