// A raw HTTP/1.1 client over node:net, for requests fetch cannot express (malformed framing, odd
// header bytes, repeated headers, HEAD): writes the bytes as given and parses the first answer.
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  statusLine: string;
  /** In order, names lower-cased. */
  headers: [string, string][];
  body: Buffer;
  /** Header lines that are not `name: value` with a token name and no control characters. */
  malformedHeaderLines: string[];
}

export interface RawOutcome {
  /** The complete answers, in order (1xx interim answers left out). */
  responses: RawResponse[];
  /** The first one, if any came. */
  response?: RawResponse;
  /** The server closed the connection. */
  closed: boolean;
  /** Fewer answers than expected came within the wait (the socket was then destroyed). */
  timedOut: boolean;
  /** Bytes received beyond the expected answers (or an incomplete one). */
  extra: Buffer;
  /** Everything received, as latin1, for failure messages. */
  text: string;
}

export function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([n]) => n === name)?.[1];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Field values: visible ASCII, spaces, tabs and obs-text; no CR, LF or other control characters.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** Statuses whose answers carry no body whatever their headers say (RFC 9112 §6.3). */
function bodiless(status: number, head: boolean): boolean {
  return head || status === 204 || status === 304 || (status >= 100 && status < 200);
}

/**
 * Parses the first answer in `data`: undefined until it is complete. `untilClose` bodies (no
 * Content-Length) are complete only when the connection closed.
 */
export function parseResponse(data: Buffer, head: boolean, closed: boolean): { response: RawResponse; used: number } | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const statusLine = lines[0]!;
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  const headers: [string, string][] = [];
  const malformedHeaderLines: string[] = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (colon < 0 || !TOKEN.test(name) || !FIELD_VALUE.test(value)) malformedHeaderLines.push(line);
    headers.push([name.toLowerCase(), value]);
  }
  const status = match === null ? 0 : Number(match[1]);
  const response: RawResponse = { status, statusLine, headers, body: Buffer.alloc(0), malformedHeaderLines };
  const start = end + 4;
  if (bodiless(status, head)) return { response, used: start };
  const length = header(response, 'content-length');
  if (length !== undefined && /^\d+$/.test(length)) {
    const size = Number(length);
    if (data.length < start + size) return undefined;
    response.body = data.subarray(start, start + size);
    return { response, used: start + size };
  }
  if (!closed) return undefined;
  response.body = data.subarray(start);
  return { response, used: data.length };
}

export interface RawOptions {
  /** How long to wait for the answers (ms). */
  waitMs: number;
  /** One entry per answer expected, true where the request is a HEAD (its answer has no body). Default [false]. */
  heads?: readonly boolean[];
  /** After the expected answers, keep reading this long for anything more (ms, default 0). */
  lingerMs?: number;
}

/** Splits `data` into complete answers, skipping 1xx interim ones (100 Continue); stops at the first incomplete one. */
export function parseResponses(data: Buffer, heads: readonly boolean[], closed: boolean): { responses: RawResponse[]; used: number } {
  const responses: RawResponse[] = [];
  let used = 0;
  while (true) {
    const head = heads[responses.length] ?? false;
    const parsed = parseResponse(data.subarray(used), head, closed);
    if (parsed === undefined) break;
    used += parsed.used;
    const { status } = parsed.response;
    if (status >= 100 && status < 200 && status !== 101) continue;
    responses.push(parsed.response);
    if (status === 101) break; // what follows is WebSocket frames
  }
  return { responses, used };
}

/**
 * Sends `bytes` on a fresh connection and resolves once the expected answers came, the server
 * closed the connection, or `waitMs` passed; then destroys the socket.
 */
export function rawRequest(port: number, bytes: Buffer | string, options: RawOptions): Promise<RawOutcome> {
  const heads = options.heads ?? [false];
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    let lingering: NodeJS.Timeout | undefined;
    const finish = (closed: boolean, timedOut: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(lingering);
      socket.destroy();
      const { responses, used } = parseResponses(data, heads, closed);
      resolve({
        responses,
        ...(responses[0] === undefined ? {} : { response: responses[0] }),
        closed,
        timedOut: timedOut && responses.length < heads.length,
        extra: data.subarray(used),
        text: data.toString('latin1'),
      });
    };
    const timer = setTimeout(() => finish(false, true), options.waitMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (lingering !== undefined || parseResponses(data, heads, false).responses.length < heads.length) return;
      if (!options.lingerMs) finish(false, false);
      else lingering = setTimeout(() => finish(false, false), options.lingerMs);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(true, false));
    socket.write(bytes);
  });
}
