// Reads a request body under a byte cap: content-length is checked first, then bytes are counted
// as they arrive. Chunks are copied (uWS reuses their ArrayBuffer) and joined once at the end.
import { AppError } from '../errors.js';
import { RequestAbortedError, type Exchange } from './exchange.js';

const JSON_TYPES = ['application/json', 'text/plain'];

/** Checks the media type: JSON, or text/plain carrying JSON (sendBeacon, no CORS preflight). */
export function checkJsonContentType(contentType: string): void {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== '' && !JSON_TYPES.includes(mediaType)) {
    throw new AppError('unsupported_media_type', 'send the body as JSON with Content-Type: application/json');
  }
}

/** Checks the media type of a form post: application/x-www-form-urlencoded. */
export function checkFormContentType(contentType: string): void {
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (mediaType !== 'application/x-www-form-urlencoded') throw new AppError('unsupported_media_type', 'send the form as application/x-www-form-urlencoded');
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `the body must be at most ${maxBytes} bytes`);
}

/**
 * Resolves with the whole body; rejects with AppError 413 past `maxBytes`, and with
 * RequestAbortedError at once when the client disconnects mid-body (uWS sends no more data then, so
 * without it the read would never settle and the request would stay in flight).
 */
export function readBody(exchange: Exchange, maxBytes: number): Promise<Buffer> {
  const declared = exchange.request.contentLength === '' ? 0 : Number(exchange.request.contentLength);
  if (declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  exchange.watchAbort();
  if (exchange.aborted) return Promise.reject(new RequestAbortedError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (): void => {
      settled = true;
      exchange.onAbort(undefined);
    };
    exchange.onAbort(() => {
      settled = true;
      reject(new RequestAbortedError());
    });
    exchange.res.onData((chunk, isLast) => {
      if (settled) return;
      received += chunk.byteLength;
      if (received > maxBytes) {
        settle();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        settle();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      }
    });
  });
}

/** Parses a JSON body; AppError('invalid_json') when it is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new AppError('invalid_json', `the body is not valid JSON: ${(error as Error).message}`);
  }
}
