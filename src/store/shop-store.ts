// Shops and their API keys. A key is shown once when it is made; only its SHA-256 is stored.
import { createHash, randomBytes } from 'node:crypto';
import { generateSigningSecret, signingSecretId } from '../api/customer-token.js';
import type { ApiKeyRecord, Databases, KeyKind, ShopRecord } from './database.js';
import { commitDurably } from './durable-commit.js';

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
  readonly #listeners: (() => void)[] = [];

  constructor(readonly dbs: Databases) {}

  /** Called after any shop or key change this store commits (caches of keys drop what they hold). */
  onChanged(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Commits a change durably, then tells the listeners. */
  async #change(write: () => void): Promise<void> {
    await commitDurably(this.dbs, write);
    for (const listener of this.#listeners) listener();
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
    await this.#change(() => {
      this.dbs.shops.put(shopId, { createdAt: now, allowedOrigins: [], ...extra });
    });
    return true;
  }

  async setAllowedOrigins(shopId: string, origins: string[]): Promise<void> {
    const shop = this.getShop(shopId);
    if (shop === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#change(() => {
      this.dbs.shops.put(shopId, { ...shop, allowedOrigins: origins });
    });
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
  async addSigningSecret(shopId: string, secret: string): Promise<void> {
    if (signingSecretId(secret) === undefined) throw new Error('not a signing secret (cts_…)');
    const shop = this.getShop(shopId);
    if (shop === undefined) throw new Error(`unknown shop "${shopId}"`);
    const current = shop.signingSecrets ?? [];
    if (current.includes(secret)) return;
    await this.#change(() => {
      this.dbs.shops.put(shopId, { ...shop, signingSecrets: [secret, ...current.slice(0, 1)] });
    });
  }

  /** Sets (or with undefined removes) the shared secret of the shop's Shopify app proxy. */
  async setAppProxySecret(shopId: string, secret: string | undefined): Promise<void> {
    const shop = this.getShop(shopId);
    if (shop === undefined) throw new Error(`unknown shop "${shopId}"`);
    const { appProxySecret: _previous, ...rest } = shop;
    await this.#change(() => {
      this.dbs.shops.put(shopId, secret === undefined ? rest : { ...rest, appProxySecret: secret });
    });
  }

  findKey(key: string): ApiKeyRecord | undefined {
    return this.dbs.apiKeys.get(hashKey(key));
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
    const record: ApiKeyRecord = { shopId, kind, createdAt: now, ...(label ? { label } : {}) };
    await this.#change(() => {
      this.dbs.apiKeys.put(hashKey(key), record);
    });
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
    if (this.dbs.apiKeys.get(hash) === undefined) return false;
    await this.#change(() => {
      this.dbs.apiKeys.remove(hash);
    });
    return true;
  }
}
