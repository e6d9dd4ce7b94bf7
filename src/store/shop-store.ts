// Shops and their API keys. A key is shown once when it is made; only its SHA-256 is stored. Every
// change is an entry of the shop's log (the tables are its view, written in the same transaction),
// so every server process applies it, in order, whoever wrote it.
import { createHash, randomBytes } from 'node:crypto';
import { generateSigningSecret, signingSecretId } from '../api/customer-token.js';
import type { ApiKeyRecord, Databases, KeyKind, ShopRecord } from './database.js';
import type { ShopChange } from './log-entry.js';
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

  /** Appends the change `build` makes inside the write transaction (none when it returns undefined), then runs `appended`. */
  async #change(shopId: string, build: () => ShopChange | undefined, now = Date.now()): Promise<void> {
    const done = await this.log.appendChange(shopId, build, now);
    if (done !== undefined) await this.appended(shopId, done.position);
  }

  /**
   * The shop's record with `update` applied, read inside the transaction (nothing is thrown there:
   * callers check that the shop exists first, and shops are never removed).
   */
  #updated(shopId: string, update: (shop: ShopRecord) => ShopRecord | undefined): () => ShopChange | undefined {
    return () => {
      const shop = this.getShop(shopId);
      if (shop === undefined) return undefined;
      const record = update(shop);
      return record === undefined ? undefined : { kind: 'shop', record };
    };
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
    let created = false;
    await this.#change(shopId, () => {
      if (this.getShop(shopId) !== undefined) return undefined; // created by another process meanwhile
      created = true;
      return { kind: 'shop', record: { createdAt: now, allowedOrigins: [], ...extra } };
    }, now);
    return created;
  }

  async setAllowedOrigins(shopId: string, origins: string[]): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#change(shopId, this.#updated(shopId, (shop) => ({ ...shop, allowedOrigins: origins })));
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
    await this.#change(
      shopId,
      this.#updated(shopId, (shop) => {
        const current = shop.signingSecrets ?? [];
        return current.includes(secret) ? undefined : { ...shop, signingSecrets: [secret, ...current.slice(0, 1)] };
      }),
      now,
    );
  }

  /** Sets (or with undefined removes) the shared secret of the shop's Shopify app proxy. */
  async setAppProxySecret(shopId: string, secret: string | undefined): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#change(
      shopId,
      this.#updated(shopId, (shop) => {
        const { appProxySecret: _previous, ...rest } = shop;
        return secret === undefined ? rest : { ...rest, appProxySecret: secret };
      }),
    );
  }

  /** Replaces the shop's registered widget ids (attribution names them for good from their entry on). */
  async setWidgets(shopId: string, widgets: readonly string[]): Promise<void> {
    if (this.getShop(shopId) === undefined) throw new Error(`unknown shop "${shopId}"`);
    await this.#change(shopId, this.#updated(shopId, (shop) => ({ ...shop, widgets: [...widgets] })));
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
    const hash = hashKey(key);
    const record: ApiKeyRecord = { shopId, kind, createdAt: now, ...(label ? { label } : {}) };
    await this.#change(shopId, () => {
      // Added by another process since the check above: nothing to do (a key's 192 random bits are never another shop's).
      return this.dbs.apiKeys.get(hash) === undefined ? { kind: 'key-added', hash, record } : undefined;
    }, now);
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
    let revoked = false;
    await this.#change(shopId, () => {
      if (this.dbs.apiKeys.get(hash) === undefined) return undefined; // revoked by another process meanwhile
      revoked = true;
      return { kind: 'key-revoked', hash };
    });
    return revoked;
  }
}
