// /dashboard: the merchant's pages. Sign-in exchanges the secret key (typed into a form, posted once
// to the same origin) for an HttpOnly, SameSite=Strict session cookie scoped to /dashboard; requests
// that change state must come from this origin and carry the session's CSRF token.
import { homePage } from '../../dashboard/pages/home-page.js';
import { signInPage } from '../../dashboard/pages/sign-in-page.js';
import { AppError } from '../../errors.js';
import { readBody } from '../../transport/body.js';
import { checkCsrf, checkSameOrigin, cookieToken, csrfHeader, DASHBOARD_COOKIE, DASHBOARD_HEADERS, signedIn } from '../dashboard-auth.js';
import type { HttpDeps } from '../deps.js';
import type { Exchange } from '../../transport/exchange.js';
import { shopModel } from '../../app/shop-model.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

const HTML = 'text/html; charset=utf-8';
/** Pages show the shop's data: never cached, never framed by another site. */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'",
} as const;
/** A sign-in or sign-out form: a key and a token, far below this. */
const MAX_FORM_BYTES = 4096;


async function readForm(exchange: Exchange): Promise<URLSearchParams> {
  const type = exchange.request.contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new AppError('unsupported_media_type', 'send the form as application/x-www-form-urlencoded');
  return new URLSearchParams((await readBody(exchange, MAX_FORM_BYTES)).toString('utf8'));
}

function sessionCookie(exchange: Exchange, value: string, maxAgeSeconds: number): string {
  // Secure wherever the dashboard is reached over HTTPS (behind a TLS proxy); browsers treat
  // http://localhost as secure anyway, but a plain-HTTP LAN address would drop a Secure cookie.
  const secure = exchange.request.headers?.['x-forwarded-proto'] === 'https' ? '; Secure' : '';
  return `${DASHBOARD_COOKIE}=${value}; Path=/dashboard; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
}

/** GET /dashboard: the overview when signed in, else the sign-in form. */
export function getDashboard(deps: HttpDeps): Handler {
  return (exchange) => {
    const current = signedIn(deps, exchange);
    if (current === undefined) {
      exchange.send(200, HTML, signInPage().text, PAGE_HEADERS);
      return;
    }
    const engine = deps.engines.get(current.shopId);
    const glance = {
      shopId: current.shopId,
      products: engine.catalog.productCount,
      eventsApplied: engine.eventCount,
      shoppersTracked: engine.erasedShoppers.held(),
      storefront: { ...deps.storefrontUsage(current.shopId), ...deps.config.storefrontQuota },
      model: shopModel(current.shopId, engine, deps.config.easeRefit.lambda),
      currency: deps.shopRecord(current.shopId)?.currency ?? null,
    };
    exchange.send(200, HTML, homePage(glance, current.session.csrf).text, PAGE_HEADERS);
  };
}

/** POST /dashboard/sign-in (form: key=sk_…): a session cookie and back to /dashboard, or the form again with why. */
export function postDashboardSignIn(deps: HttpDeps): Handler {
  return async (exchange) => {
    checkSameOrigin(exchange);
    const client = deps.limits.clientOf(exchange.res, exchange.request); // before the await: res may be gone after
    const key = (await readForm(exchange)).get('key')?.trim() ?? '';
    // Each attempt costs the address a sign-in token: a bound on guessing of its own, so that sign-ins
    // never spend the address's budget for the storefront API (its shoppers may share it).
    const refusal = client === undefined ? undefined : deps.limits.takeSignIn(client, deps.limits.clock());
    if (refusal !== undefined) throw refusal;
    const principal = key === '' ? undefined : deps.resolveKey(key);
    if (principal === undefined || principal.kind !== 'secret') {
      const why = principal === undefined ? 'That key is not a key of any shop here.' : 'That is a public key: sign in with the secret (sk_) key.';
      exchange.send(401, HTML, signInPage(why).text, PAGE_HEADERS);
      return;
    }
    const { token, stored } = deps.dashboardSessions.open(key, deps.clock());
    await stored; // every server process knows it before the browser comes back
    exchange.send(303, HTML, '<a href="/dashboard">Continue</a>', { ...PAGE_HEADERS, location: '/dashboard', 'set-cookie': sessionCookie(exchange, token, 12 * 3600) });
  };
}

/** POST /dashboard/sign-out (form: csrf=…): ends the session. */
export function postDashboardSignOut(deps: HttpDeps): Handler {
  return async (exchange) => {
    checkSameOrigin(exchange);
    const form = await readForm(exchange);
    const current = signedIn(deps, exchange);
    if (current !== undefined) {
      checkCsrf(current.session, csrfHeader(exchange) ?? form.get('csrf') ?? undefined);
      await deps.dashboardSessions.close(cookieToken(exchange));
    }
    exchange.send(303, HTML, '<a href="/dashboard">Continue</a>', { ...PAGE_HEADERS, location: '/dashboard', 'set-cookie': sessionCookie(exchange, '', 0) });
  };
}
