// One HTTP exchange over uWS: everything read from the request up front (the request object dies
// when the callback returns), abort tracking, and corked writes so an answer is one syscall.
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { AppError } from '../errors.js';

export interface RequestInfo {
  method: string;
  url: string;
  /** Raw query string, without '?'. */
  query: string;
  authorization: string;
  origin: string;
  contentType: string;
  contentLength: string;
  /**
   * More than one Content-Length header: uWS frames the body by the first, a proxy in front may use
   * another, and the bytes left over would be read as a second request (request smuggling).
   */
  ambiguousLength: boolean;
  /**
   * Forwarded and X-Forwarded-For, each header's lines joined with ", " (RFC 9110 §5.3); '' when absent
   * or not read (only when a trusted proxy may have sent them: see readRequest).
   */
  forwarded: string;
  forwardedFor: string;
  /** Further headers a route asked for (RouteOptions.headers), by lower-case name; '' when absent. */
  headers?: Readonly<Record<string, string>>;
}

/** Whether `req` repeats Content-Length; getHeader shows only the first, so the headers are counted. */
function repeatsContentLength(req: HttpRequest): boolean {
  let count = 0;
  req.forEach((name) => {
    if (name === 'content-length') count++;
  });
  return count > 1;
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

/** `forwarded`: also read Forwarded and X-Forwarded-For (a scan of every header; RateLimits.readsForwarded says when). */
export function readRequest(req: HttpRequest, headerNames?: readonly string[], forwarded = false): RequestInfo {
  const contentLength = req.getHeader('content-length');
  const info: RequestInfo = {
    method: req.getMethod(),
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    authorization: req.getHeader('authorization'),
    origin: req.getHeader('origin'),
    contentType: req.getHeader('content-type'),
    contentLength,
    // Only a request with a body pays for the scan: GETs (the hot path) carry no Content-Length.
    ambiguousLength: contentLength !== '' && repeatsContentLength(req),
    forwarded: '',
    forwardedFor: '',
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

export class Exchange {
  #aborted = false;
  #done = false;
  #watching = false;
  /** Told once when the client goes away: the pending body read, if any. */
  #onAbort: (() => void) | undefined;
  /** Headers every answer of this exchange carries (CORS). */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly res: HttpResponse,
    readonly request: RequestInfo,
  ) {}

  /**
   * Must be called before the handler first awaits. Idempotent: uWS keeps one abort handler per
   * response, so this is the only place that registers it; others listen through onAbort().
   */
  watchAbort(): void {
    if (this.#watching) return;
    this.#watching = true;
    this.res.onAborted(() => {
      this.#aborted = true;
      const listener = this.#onAbort;
      this.#onAbort = undefined;
      listener?.();
    });
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

  send(status: number, contentType: string, body: string | Uint8Array, extra?: Headers, closeConnection = false): void {
    if (this.finished) return;
    this.#done = true;
    this.res.cork(() => {
      this.res.writeStatus(STATUS_LINES[status] ?? String(status));
      this.res.writeHeader('content-type', contentType);
      for (const name in this.headers) this.res.writeHeader(name, this.headers[name]!);
      if (extra) for (const name in extra) this.res.writeHeader(name, extra[name]!);
      if (this.request.method === 'head') this.#endHead(body, closeConnection);
      else this.res.end(body, closeConnection);
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
    this.send(error.status, 'application/problem+json', error.body, error.headers, closeConnection);
  }

  noContent(extra?: Headers): void {
    if (this.finished) return;
    this.#done = true;
    this.res.cork(() => {
      this.res.writeStatus('204 No Content');
      for (const name in this.headers) this.res.writeHeader(name, this.headers[name]!);
      if (extra) for (const name in extra) this.res.writeHeader(name, extra[name]!);
      this.res.endWithoutBody();
    });
  }
}

/** Any thrown value as an AppError (unexpected ones become 500 without internals). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  console.error('unexpected error', error);
  return new AppError('internal', 'an unexpected error occurred');
}
