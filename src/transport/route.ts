// The route pipeline: what a route declares (http/route-table.ts) compiled once, at start, into the
// uWS callback that enforces it before its handler runs. The request is read before any await;
// ambiguous body framing and work while shutting down are refused; then, as declared, storefront
// CORS, the access (an API key and its rate limits, a dashboard session and its CSRF token, or a
// platform's signature over the raw bytes), the same-origin check of a form, the body read under
// its cap (413 past it) and validated. The handler then finds the caller, the URL parameters and the
// body on its exchange, calls one use case and answers. Every thrown error is answered as problem+json.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { KeyResolver, Principal } from '../app/principal.js';
import { AppError } from '../errors.js';
import { checkFormContentType, checkJsonContentType, parseJson, readBody } from './body.js';
import { allowOrigin } from './cors.js';
import { Exchange, readRequest, RequestAbortedError, toAppError, type AnswerObserver } from './exchange.js';
import type { Lifecycle } from './lifecycle.js';
import type { RateLimits } from './rate-limits.js';
import { isRequestId } from './request-id.js';
import { checkSameOrigin } from './same-origin.js';
import type { TrustedProxies } from '../limits/trusted-proxies.js';

/**
 * Who may call: anyone; an API key (`public`: either kind of the shop's keys, `secret`: its secret
 * key only); a signed-in dashboard session (`maybe-session`: anyone, the session when there is one);
 * or a platform's delivery, signed over its raw body (`signed`).
 */
export type Access = 'none' | 'public' | 'secret' | 'session' | 'maybe-session' | 'signed';

/**
 * Who a signed route's request is from (access `signed`): the shop whose secret signed it, or a
 * platform's unsigned handshake (WooCommerce pings a webhook's address when it is saved), which the
 * handler answers without changing anything.
 */
export type SignedCaller = { readonly shopId: string; readonly handshake?: never } | { readonly handshake: true; readonly shopId?: never };

/**
 * Checks a signed delivery: the platform's signature over the exact bytes received, before anything
 * parses them (in constant time); the shop it signs for, or throws AppError('unauthorized').
 */
export type SignatureCheck = (request: Exchange['request'], body: Buffer) => SignedCaller;

/** A route's body: JSON (parsed, then validated by `parse`), a urlencoded form, or the raw bytes (a signed delivery's). */
export type BodySpec =
  | {
      readonly kind: 'json';
      readonly maxBytes: number;
      /** The typia validation of the parsed JSON: the body the handler gets, or throws the route's AppError. */
      readonly parse?: (input: unknown) => unknown;
      /** Rate-limit tokens the request costs in all (it took one when admitted): a batch costs its events. */
      readonly cost?: (body: unknown) => number;
    }
  | { readonly kind: 'form'; readonly maxBytes: number }
  | { readonly kind: 'raw'; readonly maxBytes: number };

/** A route's declaration as the pipeline enforces it. */
export interface RouteSpec {
  readonly access: Access;
  /** Called by browsers cross-origin: answers carry CORS headers. */
  readonly storefront?: boolean;
  /** A form posted by a page of this origin only (Origin must name this Host). */
  readonly sameOrigin?: boolean;
  /** Changes state: a session's request must carry its CSRF token (header, or the form's `csrf` field). */
  readonly change?: boolean;
  /** Each request costs its client address a dashboard sign-in attempt. */
  readonly signIns?: boolean;
  /** URL parameters in the pattern. */
  readonly params?: number;
  /** Request headers the handler reads beyond the usual ones (lower-case), on exchange.request.headers. */
  readonly headers?: readonly string[];
  readonly body?: BodySpec;
  /** Access `signed`: the platform's signature check. */
  readonly verify?: SignatureCheck;
}

/** The dashboard's sessions, as the pipeline checks them (http/dashboard-auth.ts). */
export interface SessionAccess<S = unknown> {
  /** The session the request's cookie names, still valid; undefined when signed out. */
  signedIn(exchange: Exchange): S | undefined;
  /** Charges a request of the session to its key's rate limit; throws 429. */
  charge(session: S): void;
  /** Throws 403 unless `token` is the session's CSRF token. */
  checkCsrf(session: S, token: string | undefined): void;
}

export interface RouteDeps {
  readonly lifecycle: Lifecycle;
  readonly limits?: RateLimits;
  readonly resolveKey?: KeyResolver;
  readonly sessions?: SessionAccess;
  /** Told of every answer (the route's request metrics). */
  readonly observer?: AnswerObserver;
  /** Whose X-Request-Id is kept (PAIRWISE_TRUSTED_PROXIES; undefined: none, the header is not read). */
  readonly proxies?: TrustedProxies;
}

/** The exchange a handler gets: its caller (by the route's access) and its body (by the route's body) filled in. */
export interface Call<C = unknown, B = unknown> extends Exchange {
  readonly principal: C;
  readonly body: B;
}

export type Handler<C = unknown, B = unknown> = (call: Call<C, B>) => void | Promise<void>;

const SESSION_HEADERS = ['cookie'];
const CSRF_HEADER = 'x-csrf-token';

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function readParams(req: HttpRequest, count: number): string[] {
  const params: string[] = [];
  for (let i = 0; i < count; i++) params.push(decodeParam(req.getParameter(i) ?? ''));
  return params;
}

function fail(exchange: Exchange, error: unknown): void {
  // The client is gone: no one to answer, and its response must not be touched again.
  if (error instanceof RequestAbortedError) return;
  // The 5xx's log line (transport/telemetry.ts) says what was thrown, with the request's id.
  const appError = toAppError(error, (cause) => (exchange.failure = cause));
  // Past the body cap the rest of the upload is unread: close the connection after answering.
  exchange.problem(appError, appError.code === 'payload_too_large');
}

/**
 * Answers 400 bad_request and closes the connection when the request's body framing is ambiguous
 * (where the next request starts is unknown, so nothing more is read from it); true when it did.
 */
export function refuseBadFraming(exchange: Exchange): boolean {
  const why = exchange.request.framingError;
  if (why === undefined) return false;
  exchange.problem(new AppError('bad_request', why), true);
  return true;
}

const decoder = new TextDecoder();

/** A trusted proxy's X-Request-Id, taken for the exchange's own; a client's is left (a fresh one is minted). */
function keepProxyRequestId(res: HttpResponse, exchange: Exchange, proxies: TrustedProxies | undefined): void {
  const id = exchange.request.requestId;
  if (id === '' || proxies === undefined || !isRequestId(id)) return;
  if (proxies.has(decoder.decode(res.getRemoteAddressAsText()))) exchange.requestId = id;
}

/** The header names the route's stages and its handler read. */
function headersRead(spec: RouteSpec): readonly string[] | undefined {
  const names = new Set(spec.headers);
  if (spec.access === 'session' || spec.access === 'maybe-session') {
    for (const name of SESSION_HEADERS) names.add(name);
    if (spec.change) names.add(CSRF_HEADER);
  }
  if (spec.sameOrigin) names.add('host');
  return names.size === 0 ? undefined : [...names];
}

function csrfHeader(exchange: Exchange): string | undefined {
  const header = exchange.request.headers?.[CSRF_HEADER] ?? '';
  return header === '' ? undefined : header;
}

function required<T>(value: T | undefined, what: string, spec: RouteSpec): T {
  if (value === undefined) throw new Error(`a route with access "${spec.access}" needs ${what}`);
  return value;
}

/** The uWS callback of a route: `spec` enforced, then `handler`. */
export function route<C, B>(spec: RouteSpec, handler: Handler<C, B>, deps: RouteDeps): (res: HttpResponse, req: HttpRequest) => void {
  const { lifecycle } = deps;
  const { access, body } = spec;
  const paramCount = spec.params ?? 0;
  const headers = headersRead(spec);
  const keyed = access === 'public' || access === 'secret';
  const session = access === 'session' || access === 'maybe-session';
  const limits = keyed || spec.signIns || body?.kind === 'json' && body.cost !== undefined ? required(deps.limits, 'the rate limits', spec) : deps.limits;
  const resolveKey = keyed ? required(deps.resolveKey, 'a key resolver', spec) : undefined;
  const sessions = session ? required(deps.sessions, 'the dashboard sessions', spec) : undefined;
  const verify = access === 'signed' ? required(spec.verify, 'a signature check', spec) : undefined;
  if (verify !== undefined && body?.kind !== 'raw') throw new Error('a signed route reads its body raw: the signature is over the bytes received');
  if (verify !== undefined && spec.storefront) throw new Error('a signed route is called by a platform, never by browsers: no CORS');
  const forwarded = limits?.readsForwarded ?? false;
  const proxies = deps.proxies;
  // A form carries its CSRF token in a field when not in the header: checked once it is read.
  const csrfFromForm = session && spec.change === true && body?.kind === 'form';
  const csrfFromHeader = session && spec.change === true && !csrfFromForm;

  /** What comes after the caller is known: the body read and checked, then the handler. */
  const withBody = async (exchange: Exchange): Promise<void> => {
    const raw = await readBody(exchange, body!.maxBytes);
    if (body!.kind === 'json') {
      const input = parseJson(raw);
      exchange.body = body!.parse === undefined ? input : body!.parse(input);
      if (body!.cost !== undefined) limits!.chargeEvents(exchange.client, exchange.request, exchange.principal as Principal, body!.cost(exchange.body));
    } else if (body!.kind === 'form') exchange.body = new URLSearchParams(raw.toString('utf8'));
    else exchange.body = raw;
    if (verify !== undefined) exchange.principal = verify(exchange.request, raw);
    if (csrfFromForm && exchange.principal !== undefined) {
      sessions!.checkCsrf(exchange.principal, csrfHeader(exchange) ?? (exchange.body as URLSearchParams).get('csrf') ?? undefined);
    }
    await handler(exchange as Call<C, B>);
  };

  return (res, req) => {
    const exchange = new Exchange(res, readRequest(req, headers, forwarded, proxies !== undefined), lifecycle, deps.observer);
    keepProxyRequestId(res, exchange, proxies);
    if (paramCount > 0) exchange.params = readParams(req, paramCount);
    if (refuseBadFraming(exchange)) return;
    if (lifecycle.closing) {
      exchange.problem(new AppError('unavailable', 'the service is shutting down', undefined, { 'retry-after': '1' }), true);
      return;
    }
    let result: void | Promise<void>;
    try {
      if (spec.storefront) allowOrigin(exchange);
      if (keyed) {
        const client = limits!.clientOf(res, exchange.request);
        exchange.client = client;
        exchange.principal = limits!.admit(client, exchange.request, resolveKey!, access);
      } else if (session) {
        const current = sessions!.signedIn(exchange);
        if (current === undefined && access === 'session') throw new AppError('unauthorized', 'sign in to the dashboard first (POST /dashboard/sign-in)');
        if (current !== undefined && access === 'session') sessions!.charge(current);
        exchange.principal = current;
      }
      if (spec.sameOrigin) checkSameOrigin(exchange);
      if (csrfFromHeader && exchange.principal !== undefined) sessions!.checkCsrf(exchange.principal, csrfHeader(exchange));
      if (spec.signIns) {
        const client = limits!.clientOf(res, exchange.request);
        const refusal = client === undefined ? undefined : limits!.takeSignIn(client, limits!.clock());
        if (refusal !== undefined) throw refusal;
      }
      if (body === undefined) result = handler(exchange as Call<C, B>);
      else {
        // The body comes in later callbacks: the content type is checked now, the rest once it is in.
        if (body.kind === 'json') checkJsonContentType(exchange.request.contentType);
        else if (body.kind === 'form') checkFormContentType(exchange.request.contentType);
        result = withBody(exchange);
      }
    } catch (error) {
      fail(exchange, error);
      return;
    }
    if (result instanceof Promise) {
      // Registered before this callback returns, as uWS requires of an answer given later.
      if (!exchange.finished) exchange.watchAbort();
      lifecycle.begin();
      result.catch((error: unknown) => fail(exchange, error)).finally(() => lifecycle.end());
    }
  };
}
