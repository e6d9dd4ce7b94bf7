// Who is calling: the API key (Bearer header, or ?key=pk_… for browsers that cannot set headers)
// names the shop; its kind decides the scopes. Nothing in a body or query can name another shop.
import { AppError } from '../errors.js';
import type { RequestInfo } from './exchange.js';

export type Scope = 'recommendations:read' | 'events:write' | 'catalog:write' | 'admin';

export interface Principal {
  shopId: string;
  kind: 'public' | 'secret';
  /** Origins the shop allows for browser calls; empty = any. */
  allowedOrigins: readonly string[];
}

/** Looks a key up (the store keeps only its hash); undefined when unknown. */
export type KeyResolver = (key: string) => Principal | undefined;

const PUBLIC_SCOPES: ReadonlySet<Scope> = new Set(['recommendations:read', 'events:write']);

const CHALLENGE = { 'www-authenticate': 'Bearer realm="pairwise"' };

const NO_KEYS: readonly string[] = [];

/** The ?key= values of a query string; empty when there are none (the usual case: one substring test). */
function keysFromQuery(query: string): readonly string[] {
  if (!query.includes('key=')) return NO_KEYS;
  return new URLSearchParams(query).getAll('key');
}

function presentedKey(request: RequestInfo): string | undefined {
  const queryKeys = keysFromQuery(request.query);
  // Refused whatever else the request carries: a secret key in a URL ends up in logs and proxies, and
  // only a refusal tells the caller to stop putting it there.
  if (queryKeys.some((key) => key.startsWith('sk_'))) {
    throw new AppError('forbidden', 'a secret key must never be sent in a URL; use the Authorization header');
  }
  const header = request.authorization;
  if (header !== '') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null) throw new AppError('unauthorized', 'use Authorization: Bearer <key>', undefined, CHALLENGE);
    return match[1];
  }
  return queryKeys[0];
}

/** The caller, allowed `scope`; throws 401/403 AppErrors otherwise. */
export function authenticate(request: RequestInfo, resolve: KeyResolver, scope: Scope): Principal {
  const key = presentedKey(request);
  if (key === undefined) throw new AppError('unauthorized', 'an API key is required: Authorization: Bearer <key>', undefined, CHALLENGE);
  const principal = resolve(key);
  if (principal === undefined) throw new AppError('unauthorized', 'unknown API key', undefined, CHALLENGE);
  if (principal.kind === 'public' && !PUBLIC_SCOPES.has(scope)) {
    throw new AppError('forbidden', 'this route needs a secret (sk_) key');
  }
  if (principal.kind === 'secret' && request.origin !== '') {
    throw new AppError('forbidden', 'a secret key must never be used from a browser; use the public (pk_) key there');
  }
  if (request.origin !== '' && principal.allowedOrigins.length > 0 && !principal.allowedOrigins.includes(request.origin)) {
    throw new AppError('forbidden', `origin ${request.origin} is not allowed for this shop`);
  }
  return principal;
}

/** Caches resolved keys for a short time so the hot path skips hashing and LMDB. */
export function cachedResolver(resolve: KeyResolver, ttlMs = 30_000, maxEntries = 10_000, clock = Date.now): KeyResolver {
  const cache = new Map<string, { principal: Principal; until: number }>();
  return (key) => {
    const now = clock();
    const hit = cache.get(key);
    if (hit !== undefined && hit.until > now) return hit.principal;
    const principal = resolve(key);
    if (principal === undefined) {
      cache.delete(key);
      return undefined;
    }
    if (cache.size >= maxEntries) cache.clear();
    cache.set(key, { principal, until: now + ttlMs });
    return principal;
  };
}
