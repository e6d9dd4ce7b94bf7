// Who is signed in to the dashboard, and whether a request that changes state really comes from the
// dashboard's own page: the session cookie, the Origin check and the session's CSRF token. Shared by
// the dashboard's pages (routes/dashboard.ts) and its data routes (routes/dashboard-data.ts).
import { csrfMatches, type DashboardSession } from '../dashboard/sessions.js';
import { AppError } from '../errors.js';
import type { HttpDeps } from './deps.js';
import type { Exchange } from '../transport/exchange.js';
import type { SessionAccess } from '../transport/route.js';

export const DASHBOARD_COOKIE = 'pairwise_dashboard';

/** Request headers the dashboard's routes read (RouteOptions.headers). */
export const DASHBOARD_HEADERS = ['cookie', 'host', 'x-forwarded-proto', 'x-csrf-token'] as const;

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

/** Browsers send Origin on every POST: one that is not this host is another site's form. */
export function checkSameOrigin(exchange: Exchange): void {
  const origin = exchange.request.origin;
  const host = exchange.request.headers?.host ?? '';
  if (origin === '' || origin === 'null' || host === '') throw new AppError('forbidden', 'dashboard forms are accepted only from the dashboard itself');
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = '';
  }
  if (originHost !== host) throw new AppError('forbidden', 'dashboard forms are accepted only from the dashboard itself');
}

/** The `x-csrf-token` header; undefined when absent (uWS reads a missing header as ''). */
export function csrfHeader(exchange: Exchange): string | undefined {
  const header = exchange.request.headers?.['x-csrf-token'] ?? '';
  return header === '' ? undefined : header;
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

/**
 * The caller of a dashboard data route: signed in (else 401) and within its key's rate limit (a
 * bucket named by the key's hash: the sessions of one key share it, apart from the key's Bearer
 * calls). Call before any await.
 */
export function requireSession(deps: HttpDeps, exchange: Exchange): SignedIn {
  const current = signedIn(deps, exchange);
  if (current === undefined) throw new AppError('unauthorized', 'sign in to the dashboard first (POST /dashboard/sign-in)');
  const wait = deps.limits.takeKey(current.session.keyHash, 'secret', deps.limits.clock());
  if (wait > 0 && deps.limits.secretKey !== undefined) throw deps.limits.secretKey.error(wait);
  return current;
}

/** As requireSession, for a request that changes state: from this origin, with the session's CSRF token in `x-csrf-token` (else 403). */
export function requireSessionForChange(deps: HttpDeps, exchange: Exchange): SignedIn {
  const current = requireSession(deps, exchange);
  checkSameOrigin(exchange);
  checkCsrf(current.session, csrfHeader(exchange));
  return current;
}
