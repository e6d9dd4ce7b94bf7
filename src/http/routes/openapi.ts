// GET /api/openapi.json (no key): the OpenAPI 3.1 document of the whole API, generated once from
// the route table and the typia schemas (openapi/document.ts) when the server starts.
import { openApiDocument } from '../openapi/document.js';
import type { Route } from '../route-table.js';
import type { Handler } from '../../transport/route.js';

/** Public and the same for every shop: caches and browsers may keep it; any origin may read it (no credentials). */
const HEADERS = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' };

/** The serialized document of each route table (one per process; BASE_PATH registers the route twice). */
const bodies = new WeakMap<readonly Route[], Buffer>();

export function getOpenApi(routes: readonly Route[]): Handler {
  let body = bodies.get(routes);
  if (body === undefined) bodies.set(routes, (body = Buffer.from(JSON.stringify(openApiDocument(routes)))));
  return (exchange) => exchange.json(body, 200, HEADERS);
}
