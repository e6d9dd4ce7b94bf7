// GET /api/openapi.json (no key): the OpenAPI 3.1 document of the whole API, generated once from
// the route table and the typia schemas (openapi/document.ts) when the server starts.
import { openApiDocument } from '../openapi/document.js';
import type { Config } from '../../config.js';
import type { Route } from '../route-declaration.js';
import type { Handler } from '../../transport/route.js';

/** Public and the same for every shop: caches and browsers may keep it; any origin may read it (no credentials). */
const HEADERS = { 'cache-control': 'public, max-age=3600', 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' };

/** The serialized document of each configuration (one per process; BASE_PATH registers the route twice). */
const bodies = new WeakMap<Config, Buffer>();

/** The document of `routes` as this server enforces them (its configuration's body caps). */
export function getOpenApi(routes: readonly Route[], config: Config): Handler {
  let body = bodies.get(config);
  if (body === undefined) bodies.set(config, (body = Buffer.from(JSON.stringify(openApiDocument(routes, config)))));
  return (exchange) => exchange.json(body, 200, HEADERS);
}
