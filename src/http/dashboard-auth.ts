// Who is signed in to the dashboard: the session cookie, the session still valid and its key too,
// and the session's CSRF token, as the route pipeline checks them for the dashboard's pages and its
// data routes (access `session`, `maybe-session`).
import { csrfMatches, type DashboardSession } from '../dashboard/sessions.js';
import { AppError } from '../errors.js';
import type { HttpDeps } from './deps.js';
import type { Exchange } from '../transport/exchange.js';
import type { SessionAccess } from '../transport/route.js';

export const DASHBOARD_COOKIE = 'pairwise_dashboard';

export interface SignedIn {
  session: DashboardSession;
  shopId: string;
}

export function cookieToken(exchange: Exchange): string | undefined {
  for (const part of (exchange.request.headers?.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === DASHBOARD_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The signed-in session, its key still valid (a revoked key ends it); undefined when signed out. */
export function signedIn(deps: HttpDeps, exchange: Exchange): SignedIn | undefined {
  const token = cookieToken(exchange);
  const session = deps.dashboardSessions.use(token, deps.clock());
  if (session === undefined) return undefined;
  const principal = deps.resolveKeyHash(session.keyHash);
  if (principal === undefined || principal.kind !== 'secret') {
    void deps.dashboardSessions.close(token);
    return undefined;
  }
  return { session, shopId: principal.shopId };
}

/** Throws forbidden unless `token` is the session's CSRF token. */
export function checkCsrf(session: DashboardSession, token: string | undefined): void {
  if (!csrfMatches(session, token)) throw new AppError('forbidden', "the request lacks this session's CSRF token");
}

/**
 * The dashboard's sessions as the route pipeline checks them (access `session`, `maybe-session`): a
 * signed-in session is charged to its key's rate limit (a bucket named by the key's hash: the
 * sessions of one key share it, apart from the key's Bearer calls), and its changes carry its CSRF token.
 */
export function sessionAccess(deps: HttpDeps): SessionAccess<SignedIn> {
  return {
    signedIn: (exchange) => signedIn(deps, exchange),
    charge(current) {
      const wait = deps.limits.takeKey(current.session.keyHash, 'secret', deps.limits.clock());
      if (wait > 0 && deps.limits.secretKey !== undefined) throw deps.limits.secretKey.error(wait);
    },
    checkCsrf: (current, token) => checkCsrf(current.session, token),
  };
}
