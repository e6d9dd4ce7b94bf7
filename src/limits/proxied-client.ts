// Who a request comes from: its TCP peer, or, when the peer is a trusted proxy, the client the proxy
// chain says it forwarded for (Forwarded when the request has one, else X-Forwarded-For).
import { forwardedForHops, forwardedHops } from './forwarded-header.js';
import { uwsText } from './ip-address.js';
import type { TrustedProxies } from './trusted-proxies.js';

/**
 * The client of a request from `peer` (an address as uWS reports it), in uWS's form (see
 * ip-address.ts uwsText). The peer itself unless it is a trusted proxy that sent one of the headers;
 * then the rightmost hop that is not a trusted proxy (each proxy appends the address it took the
 * request from, so the hops left of the nearest untrusted one are whatever the client wrote), or the
 * leftmost when all are trusted.
 *
 * Undefined when a trusted peer's header does not parse, lists no hop, or the hop it points to names
 * no address (`unknown`, an obfuscated name): the caller counts the request against the peer, and must
 * not exempt it as the peer, since the client may have written that header itself.
 */
export function resolveClient(peer: string, forwarded: string, forwardedFor: string, trusted: TrustedProxies): string | undefined {
  if (trusted.empty || (forwarded === '' && forwardedFor === '') || !trusted.has(peer)) return peer;
  const hops = forwarded !== '' ? forwardedHops(forwarded) : forwardedForHops(forwardedFor);
  if (hops === undefined || hops.length === 0) return undefined;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop === undefined) return undefined;
    if (!trusted.hasIp(hop)) return uwsText(hop);
  }
  return uwsText(hops[0]!);
}
