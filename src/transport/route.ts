// Turns a route handler into a uWS callback: reads the request, refuses ambiguous framing and work
// while shutting down, watches aborts for async handlers, counts requests in flight, and answers
// every thrown error as problem+json.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { AppError } from '../errors.js';
import { Exchange, readRequest, RequestAbortedError, toAppError, type AnswerObserver } from './exchange.js';
import type { Lifecycle } from './lifecycle.js';
import { isRequestId } from './request-id.js';
import type { TrustedProxies } from '../limits/trusted-proxies.js';

/** `params` are the route's URL parameters, percent-decoded. */
export type Handler = (exchange: Exchange, params: readonly string[]) => void | Promise<void>;

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
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

export interface RouteOptions {
  /** Number of URL parameters in the pattern. */
  params?: number;
  /** The handler awaits (body, storage): aborts must be watched before it starts. */
  async?: boolean;
  /** Request headers beyond the usual ones the handler reads (lower-case), on exchange.request.headers. */
  headers?: readonly string[];
  /** Read Forwarded and X-Forwarded-For too (RateLimits.readsForwarded). */
  forwarded?: boolean;
  /** Told of every answer (the route's request metrics). */
  observer?: AnswerObserver;
  /** Whose X-Request-Id is kept (PAIRWISE_TRUSTED_PROXIES; undefined: none, the header is not read). */
  proxies?: TrustedProxies;
}

const decoder = new TextDecoder();

/** A trusted proxy's X-Request-Id, taken for the exchange's own; a client's is left (a fresh one is minted). */
function keepProxyRequestId(res: HttpResponse, exchange: Exchange, proxies: TrustedProxies | undefined): void {
  const id = exchange.request.requestId;
  if (id === '' || proxies === undefined || !isRequestId(id)) return;
  if (proxies.has(decoder.decode(res.getRemoteAddressAsText()))) exchange.requestId = id;
}

export function route(lifecycle: Lifecycle, handler: Handler, options: RouteOptions = {}): (res: HttpResponse, req: HttpRequest) => void {
  const paramCount = options.params ?? 0;
  return (res, req) => {
    const params: string[] = [];
    for (let i = 0; i < paramCount; i++) params.push(decodeParam(req.getParameter(i) ?? ''));
    const exchange = new Exchange(res, readRequest(req, options.headers, options.forwarded, options.proxies !== undefined), lifecycle, options.observer);
    keepProxyRequestId(res, exchange, options.proxies);
    if (refuseBadFraming(exchange)) return;
    if (lifecycle.closing) {
      exchange.problem(new AppError('unavailable', 'the service is shutting down', undefined, { 'retry-after': '1' }), true);
      return;
    }
    if (options.async) exchange.watchAbort();
    let result: void | Promise<void>;
    try {
      result = handler(exchange, params);
    } catch (error) {
      fail(exchange, error);
      return;
    }
    if (result instanceof Promise) {
      lifecycle.begin();
      result.catch((error: unknown) => fail(exchange, error)).finally(() => lifecycle.end());
    }
  };
}
