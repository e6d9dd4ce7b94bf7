// The catalog routes (secret key): GET (one page of the catalog) and PUT /api/products, GET and
// DELETE /api/products/:id.
import { encodeCursor, parseCatalogPageQuery } from '../../api/catalog-page-query.js';
import { normalizeProductId } from '../../api/product-id.js';
import { parseCatalog } from '../../api/product.js';
import type { ProductDeleted, ProductsUpserted } from '../../api/responses.js';
import { AppError } from '../../errors.js';
import { checkJsonContentType, parseJson, readBody } from '../../transport/body.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../../transport/rate-limits.js';
import { productJson } from '../../app/render.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

function productIdParam(raw: string): string {
  const id = normalizeProductId(raw);
  if (id === undefined) throw new AppError('not_found', 'no such product');
  return id;
}

/** GET /api/products?cursor=&limit= — `{products:[…], nextCursor}`, nextCursor null on the last page. */
export function listProducts(deps: HttpDeps): Handler {
  return (exchange) => {
    const principal = admit(exchange, deps, 'catalog:write');
    const parsed = parseCatalogPageQuery(exchange.request.query);
    if (!parsed.ok) throw parsed.error;
    const page = deps.catalog.page(principal.shopId, parsed.query.after, parsed.query.limit);
    const last = page.products.at(-1);
    const next = page.more && last !== undefined ? `"${encodeCursor(last.id)}"` : 'null';
    exchange.json(`{"products":[${page.products.map(productJson).join(',')}],"nextCursor":${next}}`);
  };
}

export function putProducts(deps: HttpDeps): Handler {
  return async (exchange) => {
    const principal = admit(exchange, deps, 'catalog:write');
    checkJsonContentType(exchange.request.contentType);
    const input = parseJson(await readBody(exchange, deps.config.maxCatalogBodyBytes));
    const parsed = parseCatalog(input, deps.config.engine.gidPlatform, deps.clock());
    if (!parsed.ok) {
      const first = parsed.errors[0]!;
      throw new AppError('invalid_product', `${first.pointer} ${first.detail}`, parsed.errors);
    }
    const position = await deps.catalog.upsert(principal.shopId, parsed.products, deps.clock());
    exchange.json(JSON.stringify({ success: true, upserted: parsed.products.length, position: deps.pipeline.positionToken(position) } satisfies ProductsUpserted));
  };
}

export function getProduct(deps: HttpDeps): Handler {
  return (exchange, [raw]) => {
    const principal = admit(exchange, deps, 'catalog:write');
    const product = deps.catalog.get(principal.shopId, productIdParam(raw!));
    if (product === undefined) throw new AppError('not_found', 'no such product');
    exchange.json(productJson(product));
  };
}

export function deleteProduct(deps: HttpDeps): Handler {
  return async (exchange, [raw]) => {
    const principal = admit(exchange, deps, 'catalog:write');
    const position = await deps.catalog.remove(principal.shopId, productIdParam(raw!), deps.clock());
    if (position === undefined) throw new AppError('not_found', 'no such product');
    exchange.json(JSON.stringify({ success: true, deleted: raw!, position: deps.pipeline.positionToken(position) } satisfies ProductDeleted));
  };
}
