// Request ids (X-Request-Id): every answer carries one, and the log line of a 5xx names it, so an
// operator can find a client's failed request in the log. A process mints its own (a random prefix
// and a counter: unique across the node's processes and restarts, no randomness per request); one
// a trusted proxy (PAIRWISE_TRUSTED_PROXIES) sent along is kept, so the proxy's logs and ours name
// the request alike. A client's own is never believed: it could pass itself off as another's.
import { randomBytes } from 'node:crypto';

const PREFIX = randomBytes(6).toString('base64url');
let next = 0;

/** A fresh id of this process: `<8 random base64url characters>-<counter in base 36>`. */
export function mintRequestId(): string {
  return `${PREFIX}-${(next++).toString(36)}`;
}

/** At most this long, of visible ASCII but for quotes and backslashes (it goes into a header and a JSON log line as it is). */
const MAX_LENGTH = 128;

/** Whether a proxy's X-Request-Id may be kept as it is. */
export function isRequestId(value: string): boolean {
  if (value.length === 0 || value.length > MAX_LENGTH) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 0x22 /* " */ || c === 0x5c /* \ */) return false;
  }
  return true;
}
