// Shops and their API keys. A key is shown once when it is made; only its SHA-256 is stored. Every
// change is an entry of the shop's log (the tables are its view, written in the same transaction),
// so every server process applies it, in order, whoever wrote it.
import { createHash, randomBytes } from 'node:crypto';
import { generateSigningSecret, signingSecretId } from '../api/customer-token.js';
import type { Recency } from '../engine/engine-config.js';
import type { ApiKeyRecord, Databases, KeyKind, ShopRecord } from './database.js';
import type { ShopCommand, ShopUpdate } from './shop-command.js';
import type { FeedAction } from './feed-settings.js';
import type { ConnectionAction, Platform } from './webhook-connection.js';
import { LmdbShopLog, type ShopLog } from './shop-log.js';

export const SHOP_ID = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new key: its prefix says its kind, then 192 random bits in base64url. */
export function generateKey(kind: KeyKind): string {
  return (kind === 'public' ? 'pk_' : 'sk_') + randomBytes(24).toString('base64url');
}

export function keyKind(key: string): KeyKind | undefined {
  return key.startsWith('pk_') ? 'public' : key.startsWith('sk_') ? 'secret' : undefined;
}

export class ShopStore {
  constructor(
    readonly dbs: Databases,
    readonly log: ShopLog = new LmdbShopLog(dbs),
    /** Runs after each change is durable, with its log position (the service applies the log through it). */
    readonly appended: (shopId: string, position: number) => Promise<void> = async () => {},
  ) {}

  /** Appends the command's change (none when it changes nothing), then runs `appended`; resolves with whether it changed anything. */
  async #command(shopId: string, command: ShopCommand, now = Date.now()): Promise<boolean> {
    const done = await this.log.append(shopId, command, now);
    if (done !== undefined) await this.appended(shopId, done.position);
    return done !== undefined;
  }

  /** Sets one field of the shop's record (read inside the transaction; nothing when the shop has none). */
  #update(shopId: string, update: ShopUpdate, now?: number): Promise<boolean> {
    return this.#command(shopId, { kind: 'update-shop', update }, now);
  }

  getShop(shopId: string): ShopRecord | undefined {
    return this.dbs.shops.get(shopId);
  }

  listShops(): string[] {
    return [...this.dbs.shops.getKeys()];
  }

  /** Creates the shop if it does not exist; returns whether it was created. */
  async ensureShop(shopId: string, extra: Partial<ShopRecord> = {}, now = Date.now()): Promise<boolean> {
    if (!SHOP_ID.test(shopId)) throw new Error(`invalid shop id "${shopId}": use 1-63 of a-z, 0-9, _ and -`);
    if (this.getShop(shopId) !== undefined) return false;
    // Nothing when another process created it meanwhile.
    return this.#command(shopId, { kind: 'create-shop', record: { createdAt: now, allowedOrigins: [], ...extra } }, now);
  }

  async setAllowedOrigins(shopId: string, origins: string[]): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#update(shopId, { field: 'allowedOrigins', origins });
  }

  /**
   * Adds a new customer-token signing secret and returns it (the only time it is shown). The
   * previous one stays valid, so tokens already handed out keep working; any older one is dropped.
   */
  async rotateSigningSecret(shopId: string): Promise<string> {
    const secret = generateSigningSecret();
    await this.addSigningSecret(shopId, secret);
    return secret;
  }

  /** Makes `secret` the shop's newest signing secret (as a rotation does); nothing when it already is one of them. */
  async addSigningSecret(shopId: string, secret: string, now = Date.now()): Promise<void> {
    if (signingSecretId(secret) === undefined) throw new Error('not a signing secret (cts_…)');
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    if (this.getShop(shopId)?.signingSecrets?.includes(secret) === true) return; // (checked again as it is appended)
    await this.#update(shopId, { field: 'signingSecret', secret }, now);
  }

  /** Sets (or with undefined removes) the shared secret of the shop's Shopify app proxy. */
  async setAppProxySecret(shopId: string, secret: string | undefined): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#update(shopId, secret === undefined ? { field: 'appProxySecret' } : { field: 'appProxySecret', secret });
  }

  /** Replaces the shop's registered widget ids (attribution names them for good from their entry on). */
  async setWidgets(shopId: string, widgets: readonly string[]): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#update(shopId, { field: 'widgets', widgets });
  }

  /** Sets the shop's recency setting (nothing when it already has it). */
  async setRecency(shopId: string, recency: Recency): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#update(shopId, { field: 'recency', recency });
  }

  async setCurrency(shopId: string, currency: string): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#update(shopId, { field: 'currency', currency });
  }

  /** Changes the shop's feed settings; resolves with whether anything changed. */
  async changeFeed(shopId: string, change: FeedAction, now = Date.now()): Promise<boolean> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    return this.#update(shopId, { field: 'feed', change }, now);
  }

  /** Changes the shop's connection to a platform; resolves with whether anything changed (a connect to a store another shop holds changes nothing). */
  async changeConnection(shopId: string, platform: Platform, change: ConnectionAction, now = Date.now()): Promise<boolean> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    return this.#update(shopId, { field: 'connection', platform, change }, now);
  }

  findKey(key: string): ApiKeyRecord | undefined {
    return this.findKeyHash(hashKey(key));
  }

  /** The key stored under a SHA-256 (hex), as the key table keeps them; undefined when none. */
  findKeyHash(hash: string): ApiKeyRecord | undefined {
    return this.dbs.apiKeys.get(hash);
  }

  /** Registers a given key for a shop (idempotent); throws when it belongs to another shop. */
  async addKey(shopId: string, key: string, label?: string, now = Date.now()): Promise<void> {
    const kind = keyKind(key);
    if (kind === undefined) throw new Error('a key starts with pk_ or sk_');
    const existing = this.findKey(key);
    if (existing !== undefined) {
      if (existing.shopId !== shopId) throw new Error('this key already belongs to another shop');
      return;
    }
    const hash = hashKey(key);
    const record: ApiKeyRecord = { shopId, kind, createdAt: now, ...(label ? { label } : {}) };
    // Nothing when another process added it since the check above (a key's 192 random bits are never another shop's).
    await this.#command(shopId, { kind: 'add-key', hash, record }, now);
  }

  /** Makes a new key for the shop and returns it: the only time it is ever visible. */
  async createKey(shopId: string, kind: KeyKind, label?: string): Promise<string> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    const key = generateKey(kind);
    await this.addKey(shopId, key, label);
    return key;
  }

  /** Key records of a shop (hashes and kinds, never the keys). */
  listKeys(shopId: string): (ApiKeyRecord & { hash: string })[] {
    const keys: (ApiKeyRecord & { hash: string })[] = [];
    for (const { key, value } of this.dbs.apiKeys.getRange()) if (value.shopId === shopId) keys.push({ ...value, hash: key });
    return keys;
  }

  async revokeKey(hash: string): Promise<boolean> {
    const shopId = this.dbs.apiKeys.get(hash)?.shopId;
    if (shopId === undefined) return false;
    // Nothing when another process revoked it meanwhile.
    return this.#command(shopId, { kind: 'revoke-key', hash });
  }
}
