// CORS for the storefront routes: any origin may call them with a public key (a shop may narrow
// that to its own origins, checked in auth); credentials are never allowed.
import type { Exchange } from './exchange.js';

export const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, pairwise-after',
  'access-control-max-age': '86400',
};

/** Adds the CORS headers to every answer of a storefront exchange that came from a browser. */
export function allowOrigin(exchange: Exchange): void {
  const origin = exchange.request.origin;
  if (origin === '') return;
  exchange.headers['access-control-allow-origin'] = origin;
  exchange.headers['vary'] = 'Origin';
}
