// Who an API key names: the key's record and its shop's current settings as a Principal, cached
// for the hot path (transport/auth.ts, cachedResolver) and dropped whenever the applied log says a
// shop's keys or record changed, whichever process wrote it (revocations, origins and signing
// secrets apply at once).
import { signingKey } from '../api/customer-token.js';
import type { ApiKeyRecord } from '../store/database.js';
import type { ShopStore } from '../store/shop-store.js';
import type { AppliedChanges } from './applied-changes.js';
import type { KeyResolver, Principal } from './principal.js';

export class KeyDirectory {
  /** The caller holding a key; undefined for an unknown one. */
  readonly resolve: KeyResolver;
  readonly #cache: { clear(): void };

  constructor(
    readonly shops: ShopStore,
    applied: AppliedChanges,
  ) {
    const cached = cachedResolver((key) => this.#principalOf(shops.findKey(key)));
    this.resolve = cached.resolve;
    this.#cache = cached;
    applied.onKeysChanged(() => cached.clear());
  }

  /** The caller a stored key's SHA-256 names (a dashboard session's key): uncached, the dashboard's traffic is light. */
  readonly resolveHash = (hash: string): Principal | undefined => this.#principalOf(this.shops.findKeyHash(hash));

  /** Forgets every key resolved (a shop erased). */
  clear(): void {
    this.#cache.clear();
  }

  #principalOf(record: ApiKeyRecord | undefined): Principal | undefined {
    if (record === undefined) return undefined;
    const shop = this.shops.getShop(record.shopId);
    return {
      shopId: record.shopId,
      kind: record.kind,
      allowedOrigins: shop?.allowedOrigins ?? [],
      customerKeys: (shop?.signingSecrets ?? []).map(signingKey),
      ...(shop?.appProxySecret ? { appProxySecret: shop.appProxySecret } : {}),
    };
  }
}

/** A key resolver that keeps what it resolved for a while; `clear` drops it all (after a key change). */
export interface CachedResolver {
  resolve: KeyResolver;
  clear(): void;
}

/**
 * Caches resolved keys for a short time so the hot path skips hashing and LMDB; unknown keys are
 * cached as misses for a shorter time, so a flood of made-up keys does not reach LMDB each time.
 * Misses have a table of their own: a flood of them (anyone can send one) fills and clears only that
 * table, never the known keys'. Changes made by this process clear both at once
 * (ShopStore.onChanged); others apply within ttlMs.
 */
export function cachedResolver(resolve: KeyResolver, ttlMs = 30_000, missTtlMs = 5_000, maxEntries = 10_000, clock = Date.now): CachedResolver {
  const known = new Map<string, { principal: Principal; until: number }>();
  /** Unknown key → until when it is answered as unknown without a lookup. */
  const misses = new Map<string, number>();
  return {
    resolve(key) {
      const now = clock();
      const hit = known.get(key);
      if (hit !== undefined && hit.until > now) return hit.principal;
      const missUntil = misses.get(key);
      if (missUntil !== undefined && missUntil > now) return undefined;
      const principal = resolve(key);
      if (principal === undefined) {
        known.delete(key);
        if (misses.size >= maxEntries) misses.clear();
        misses.set(key, now + missTtlMs);
        return undefined;
      }
      misses.delete(key);
      if (known.size >= maxEntries) known.clear();
      known.set(key, { principal, until: now + ttlMs });
      return principal;
    },
    clear() {
      known.clear();
      misses.clear();
    },
  };
}
