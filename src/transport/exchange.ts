// One HTTP exchange over uWS: everything read from the request up front (the request object dies
// when the callback returns), its framing checked, abort tracking, and corked writes so an answer is
// one syscall (one that closes its connection waits for the end of what uWS read from it).
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { AppError } from '../errors.js';
import type { Lifecycle } from './lifecycle.js';
import { mintRequestId } from './request-id.js';

export interface RequestInfo {
  method: string;
  url: string;
  /** Raw query string, without '?'. */
  query: string;
  authorization: string;
  origin: string;
  contentType: string;
  contentLength: string;
  /** The body comes as chunks (Transfer-Encoding: chunked): its answer closes the connection (Exchange.send). */
  chunked: boolean;
  /**
   * Why the body's length is ambiguous (RFC 9112 §6.3), or undefined when it is not: uWS frames a body
   * by the first Content-Length and reads any Transfer-Encoding as chunked, a proxy in front may frame
   * it otherwise, and the bytes left over would be read as a second request (request smuggling).
   */
  framingError: string | undefined;
  /**
   * Forwarded and X-Forwarded-For, each header's lines joined with ", " (RFC 9110 §5.3); '' when absent
   * or not read (only when a trusted proxy may have sent them: see readRequest).
   */
  forwarded: string;
  forwardedFor: string;
  /** Further headers a route asked for (RouteOptions.headers), by lower-case name; '' when absent. */
  headers?: Readonly<Record<string, string>>;
  /** X-Request-Id as sent ('' when absent, or not read: only a trusted proxy's is kept, see route.ts). */
  requestId: string;
}

/**
 * Why `req`'s body framing is ambiguous, or undefined. getHeader shows only the first of a repeated
 * header, so the headers are walked. Transfer-Encoding is taken only as exactly `chunked`, once: uWS
 * decodes no other coding and reads whatever the header says as chunked. (uWS closes a connection
 * itself, before any handler, on Content-Length beside a non-empty Transfer-Encoding; an empty one
 * gets here.)
 */
function framingError(req: HttpRequest): string | undefined {
  let lengths = 0;
  let encodings = 0;
  let chunkedOnly = true;
  req.forEach((name, value) => {
    if (name === 'content-length') lengths++;
    else if (name === 'transfer-encoding') {
      encodings++;
      if (value !== 'chunked') chunkedOnly = false;
    }
  });
  if (lengths > 1) return 'a request may carry only one Content-Length header';
  if (encodings > 1 || !chunkedOnly) return 'the only Transfer-Encoding taken is chunked, in one header';
  if (lengths > 0 && encodings > 0) return 'a request may not carry both Content-Length and Transfer-Encoding';
  return undefined;
}

/**
 * Every line of Forwarded and X-Forwarded-For into `info`. getHeader shows only a header's first line,
 * which may be one the client wrote: a proxy may add its own line after it (HAProxy does) instead of
 * appending to the client's.
 */
function readForwarded(req: HttpRequest, info: RequestInfo): void {
  req.forEach((name, value) => {
    if (name === 'x-forwarded-for') info.forwardedFor = info.forwardedFor === '' ? value : `${info.forwardedFor}, ${value}`;
    else if (name === 'forwarded') info.forwarded = info.forwarded === '' ? value : `${info.forwarded}, ${value}`;
  });
}

/**
 * `forwarded`: also read Forwarded and X-Forwarded-For (a scan of every header; RateLimits.readsForwarded
 * says when); `requestId`: also X-Request-Id (when a trusted proxy may have set it).
 */
export function readRequest(req: HttpRequest, headerNames?: readonly string[], forwarded = false, requestId = false): RequestInfo {
  const contentLength = req.getHeader('content-length');
  const transferEncoding = req.getHeader('transfer-encoding');
  const info: RequestInfo = {
    method: req.getMethod(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    authorization: req.getHeader('authorization'),
    origin: req.getHeader('origin'),
    contentType: req.getHeader('content-type'),
    contentLength,
    chunked: transferEncoding !== '',
    // Only a request with a body pays for the scan: GETs (the hot path) carry neither header.
    framingError: contentLength === '' && transferEncoding === '' ? undefined : framingError(req),
    forwarded: '',
    forwardedFor: '',
    requestId: requestId ? req.getHeader('x-request-id') : '',
  };
  if (forwarded) readForwarded(req, info);
  if (headerNames !== undefined) {
    const headers: Record<string, string> = {};
    for (const name of headerNames) headers[name] = req.getHeader(name);
    info.headers = headers;
  }
  return info;
}

export type Headers = Readonly<Record<string, string>>;

const STATUS_LINES: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  204: '204 No Content',
  302: '302 Found',
  303: '303 See Other',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Content Too Large',
  415: '415 Unsupported Media Type',
  426: '426 Upgrade Required',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

/**
 * Rejects a pending body read when the client went away (uWS onAborted). There is no one to answer:
 * the route drops it quietly and nothing is written to the response.
 */
export class RequestAbortedError extends Error {
  constructor() {
    super('the client closed the connection before the request was answered');
    this.name = 'RequestAbortedError';
  }
}

/** Told of each answer: its status (0: the client went away first), and the time since the request came. */
export interface AnswerObserver {
  answered(exchange: Exchange, status: number, seconds: number): void;
}
const NO_PARAMS: readonly string[] = Object.freeze([]);

export class Exchange {
  /** Who is calling, as the route's declared access found them (transport/route.ts); undefined for access 'none'. */
  principal: unknown = undefined;
  /** The route's URL parameters, percent-decoded. */
  params: readonly string[] = NO_PARAMS;
  /** The body as the route declares it (validated JSON, a form, or the raw bytes); undefined for a route without one. */
  body: unknown = undefined;
  /** The client's rate-limit bucket (RateLimits.clientOf), read before any await; undefined when it is not limited. */
  client: string | undefined = undefined;
  #aborted = false;
  #done = false;
  #watching = false;
  /** Told once when the client goes away: the pending body read, if any. */
  #onAbort: (() => void) | undefined;
  /** Headers every answer of this exchange carries (CORS). */
  readonly headers: Record<string, string> = {};
  #requestId: string | undefined;
  /** The error code of the problem this exchange was answered with (undefined: none). */
  problemCode: string | undefined;
  /** What was thrown that no one expected (answered 500 without it): for the log line of the 5xx. */
  failure: unknown;

  /** performance.now() when the exchange began (0 when no one observes it). */
  readonly #started: number;

  constructor(
    readonly res: HttpResponse,
    readonly request: RequestInfo,
    /** Where an answer left for the next turn counts as in flight, so a shutdown waits for it (see #later). */
    readonly lifecycle?: Lifecycle,
    /** The route's request metrics (observability/request-metrics.ts). */
    readonly observer?: AnswerObserver,
  ) {
    this.#started = observer === undefined ? 0 : performance.now();
  }

  #answered(status: number): void {
    this.observer?.answered(this, status, (performance.now() - this.#started) / 1000);
  }

  /** This request's id (X-Request-Id): minted on first use, unless a trusted proxy's was kept (route.ts). */
  get requestId(): string {
    return (this.#requestId ??= mintRequestId());
  }

  set requestId(id: string) {
    this.#requestId = id;
  }

  /**
   * Must be called before the handler first awaits. Idempotent: uWS keeps one abort handler per
   * response, so this is the only place that registers it; others listen through onAbort().
   */
  watchAbort(): void {
    if (this.#watching) return;
    this.#watching = true;
    this.res.onAborted(() => {
      if (!this.#done) this.#answered(0);
      this.#aborted = true;
      const listener = this.#onAbort;
      this.#onAbort = undefined;
      listener?.();
    });
  }

  /** The request became a WebSocket (uWS answered 101): nothing more is written through this exchange. */
  upgraded(): void {
    if (this.finished) return;
    this.#done = true;
    this.#answered(101);
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /**
   * Calls `listener` once when the client goes away (needs watchAbort()); one listener at a time,
   * `undefined` removes it. Not called when the client is already gone: check `aborted` first.
   */
  onAbort(listener: (() => void) | undefined): void {
    this.#onAbort = listener;
  }

  get finished(): boolean {
    return this.#aborted || this.#done;
  }

  /**
   * Answers once. `closeConnection` (always after a chunked body: uWS checks none of the CRLFs that
   * end its chunks, so a proxy in front may see that body end elsewhere) says Connection: close, and
   * nothing sent behind this request on the connection is run (see #later).
   */
  send(status: number, contentType: string, body: string | Uint8Array, extra?: Headers, closeConnection = false): void {
    if (this.finished) return;
    this.#done = true;
    this.#answered(status);
    const close = closeConnection || this.request.chunked;
    // Bytes may be a view of a buffer the next answer reuses (Answers' scratch): copied when they wait.
    const bytes = close && typeof body !== 'string' ? Buffer.from(body) : body;
    const write = (): void => {
      this.res.writeStatus(STATUS_LINES[status] ?? String(status));
      this.res.writeHeader('content-type', contentType);
      this.res.writeHeader('x-request-id', this.requestId);
      for (const name in this.headers) this.res.writeHeader(name, this.headers[name]!);
      if (extra) for (const name in extra) this.res.writeHeader(name, extra[name]!);
      if (this.request.method === 'head') this.#endHead(bytes, close);
      else this.res.end(bytes, close);
    };
    if (close) this.#later(write);
    else this.res.cork(write);
  }

  /**
   * Writes an answer that closes the connection on the next turn of the event loop. uWS 20.30 runs
   * every request in what it has read from a connection (pipelined ones too) before it sends
   * anything, and each request it starts forgets the close an answer before it asked for: answered
   * now, the request behind this one would run. Left unanswered, this one makes uWS close the
   * connection at once if another request arrives behind it (it never starts one while one before it
   * is unanswered), this answer lost with it; alone, the answer goes out and uWS then closes.
   */
  #later(write: () => void): void {
    this.watchAbort();
    this.lifecycle?.begin();
    setImmediate(() => {
      if (!this.#aborted) this.res.cork(write);
      this.lifecycle?.end();
    });
  }

  /**
   * A HEAD answer has no content (RFC 9110 §9.3.2): its bytes would be read as the start of the next
   * answer on the connection. It still says the length of the body left out. uWS 20.30 treats
   * endWithoutBody(length > 0) as a body still to come (and aborts the process when the handler
   * returns), so the header is written here; a closing answer says 0, the only length it takes then.
   */
  #endHead(body: string | Uint8Array, closeConnection: boolean): void {
    if (closeConnection) {
      this.res.endWithoutBody(0, true);
      return;
    }
    this.res.writeHeader('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
    this.res.endWithoutBody();
  }

  json(body: string | Uint8Array, status = 200, extra?: Headers): void {
    this.send(status, 'application/json', body, extra);
  }

  problem(error: AppError, closeConnection = false): void {
    if (!this.finished) this.problemCode = error.code;
    this.send(error.status, 'application/problem+json', error.body, error.headers, closeConnection);
  }

  noContent(extra?: Headers): void {
    if (this.finished) return;
    this.#done = true;
    this.#answered(204);
    const close = this.request.chunked;
    const write = (): void => {
      this.res.writeStatus('204 No Content');
      this.res.writeHeader('x-request-id', this.requestId);
      for (const name in this.headers) this.res.writeHeader(name, this.headers[name]!);
      if (extra) for (const name in extra) this.res.writeHeader(name, extra[name]!);
      // uWS 20.30 closes only with a length given (it writes Content-Length: 0 then); without one
      // it writes a length of 2^63. Only a preflight carrying a chunked body, which no browser sends, closes.
      if (close) this.res.endWithoutBody(0, true);
      else this.res.endWithoutBody();
    };
    if (close) this.#later(write);
    else this.res.cork(write);
  }
}

/** Any thrown value as an AppError (unexpected ones become 500 without internals, told to `unexpected` first). */
export function toAppError(error: unknown, unexpected: (error: unknown) => void = (cause) => console.error('unexpected error', cause)): AppError {
  if (error instanceof AppError) return error;
  unexpected(error);
  return new AppError('internal', 'an unexpected error occurred');
}
