// Who is calling: the API key (Bearer header, or ?key=pk_… for browsers that cannot set headers)
// names the shop; its kind decides what it may call (a route needs either kind, or a secret key).
// Nothing in a body or query can name another shop.
import type { KeyResolver, Principal } from '../app/principal.js';
import { AppError } from '../errors.js';
import type { RequestInfo } from './exchange.js';

/** The key a route needs: either of the shop's keys (a storefront's public key, its server's secret one), or its secret key. */
export type KeyNeeded = 'public' | 'secret';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="pairwise"' };

const NO_KEYS: readonly string[] = [];

/** The ?key= values of a query string; empty when there are none (the usual case: one substring test). */
function keysFromQuery(query: string): readonly string[] {
  if (!query.includes('key=')) return NO_KEYS;
  return new URLSearchParams(query).getAll('key');
}

/** The key the request presents (Bearer header, else ?key=), undefined when none; throws 401/403 for a malformed header or a secret key in the URL. */
export function presentedKey(request: RequestInfo): string | undefined {
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

/** The caller holding `key` (as presentedKey found it), if it is the kind `needed`; throws 401/403 AppErrors otherwise. */
export function authorize(key: string | undefined, request: RequestInfo, resolve: KeyResolver, needed: KeyNeeded): Principal {
  if (key === undefined) throw new AppError('unauthorized', 'an API key is required: Authorization: Bearer <key>', undefined, CHALLENGE);
  const principal = resolve(key);
  if (principal === undefined) throw new AppError('unauthorized', 'unknown API key', undefined, CHALLENGE);
  if (principal.kind === 'public' && needed === 'secret') {
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

/** The caller, if it holds a key of the kind `needed`; throws 401/403 AppErrors otherwise. */
export function authenticate(request: RequestInfo, resolve: KeyResolver, needed: KeyNeeded): Principal {
  return authorize(presentedKey(request), request, resolve, needed);
}
