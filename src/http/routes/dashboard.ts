// /dashboard: the merchant's pages. Sign-in exchanges the secret key (typed into a form, posted once
// to the same origin) for an HttpOnly, SameSite=Strict session cookie scoped to /dashboard; requests
// that change state come from this origin and carry the session's CSRF token (the route pipeline
// checks both, and charges each sign-in attempt to its address).
import { homePage } from '../../dashboard/pages/home-page.js';
import { signInPage } from '../../dashboard/pages/sign-in-page.js';
import { cookieToken, DASHBOARD_COOKIE, type SignedIn } from '../dashboard-auth.js';
import type { HttpDeps } from '../deps.js';
import type { Exchange } from '../../transport/exchange.js';
import type { Handler } from '../../transport/route.js';

const HTML = 'text/html; charset=utf-8';
/** Pages show the shop's data: never cached, never framed by another site. */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
} as const;
/** A sign-in or sign-out form: a key and a token, far below this. */
export const MAX_FORM_BYTES = 4096;

/** Request headers the pages read beyond the session's: whether the browser reached us over HTTPS. */
export const PAGE_REQUEST_HEADERS = ['x-forwarded-proto'] as const;

function sessionCookie(exchange: Exchange, value: string, maxAgeSeconds: number): string {
  // Secure wherever the dashboard is reached over HTTPS (behind a TLS proxy); browsers treat
  // http://localhost as secure anyway, but a plain-HTTP LAN address would drop a Secure cookie.
  const secure = exchange.request.headers?.['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  return `${DASHBOARD_COOKIE}=${value}; Path=/dashboard; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** GET /dashboard: the overview when signed in, else the sign-in form. */
export function getDashboard(deps: HttpDeps): Handler<SignedIn | undefined> {
  return (call) => {
    const current = call.principal;
    if (current === undefined) call.send(200, HTML, signInPage().text, PAGE_HEADERS);
    else call.send(200, HTML, homePage(deps.shops.glance(current.shopId), current.session.csrf).text, PAGE_HEADERS);
  };
}

/** POST /dashboard/sign-in (form: key=sk_…): a session cookie and back to /dashboard, or the form again with why. */
export function postDashboardSignIn(deps: HttpDeps): Handler<undefined, URLSearchParams> {
  return async (call) => {
    const key = call.body.get('key')?.trim() ?? '';
    const principal = key === '' ? undefined : deps.resolveKey(key);
    if (principal === undefined || principal.kind !== 'secret') {
      const why = principal === undefined ? 'That key is not a key of any shop here.' : 'That is a public key: sign in with the secret (sk_) key.';
      call.send(401, HTML, signInPage(why).text, PAGE_HEADERS);
      return;
    }
    const { token, stored } = deps.dashboardSessions.open(key, deps.clock());
    await stored; // every server process knows it before the browser comes back
    call.send(303, HTML, '<a href="/dashboard">Continue</a>', { ...PAGE_HEADERS, location: '/dashboard', 'set-cookie': sessionCookie(call, token, 12 * 3600) });
  };
}

/** POST /dashboard/sign-out (form: csrf=…): ends the session (the pipeline checked its CSRF token). */
export function postDashboardSignOut(deps: HttpDeps): Handler<SignedIn | undefined, URLSearchParams> {
  return async (call) => {
    if (call.principal !== undefined) await deps.dashboardSessions.close(cookieToken(call));
    call.send(303, HTML, '<a href="/dashboard">Continue</a>', { ...PAGE_HEADERS, location: '/dashboard', 'set-cookie': sessionCookie(call, '', 0) });
  };
}
