// The catalog routes (secret key): GET (one page of the catalog) and PUT /api/products, GET and
// DELETE /api/products/:id. PUT's body comes validated (api/product.ts, catalogProducts).
import { encodeCursor, parseCatalogPageQuery } from '../../api/catalog-page-query.js';
import { normalizeProductId } from '../../api/product-id.js';
import type { ProductDeleted, ProductsUpserted } from '../../api/responses.js';
import type { Principal } from '../../app/principal.js';
import type { Product } from '../../engine/product.js';
import { AppError } from '../../errors.js';
import type { HttpDeps } from '../deps.js';
import { productJson } from '../../app/render.js';
import type { Handler } from '../../transport/route.js';

function productIdParam(raw: string): string {
  const id = normalizeProductId(raw);
  if (id === undefined) throw new AppError('not_found', 'no such product');
  return id;
}

/** GET /api/products?cursor=&limit= — `{products:[…], nextCursor}`, nextCursor null on the last page. */
export function listProducts(deps: HttpDeps): Handler<Principal> {
  return (call) => {
    const parsed = parseCatalogPageQuery(call.request.query);
    if (!parsed.ok) throw parsed.error;
    const page = deps.catalog.page(call.principal.shopId, parsed.query.after, parsed.query.limit);
    const last = page.products.at(-1);
    const next = page.more && last !== undefined ? `"${encodeCursor(last.id)}"` : 'null';
    call.json(`{"products":[${page.products.map(productJson).join(',')}],"nextCursor":${next}}`);
  };
}

export function putProducts(deps: HttpDeps): Handler<Principal, Product[]> {
  return async (call) => {
    const put = await deps.catalog.upsert(call.principal.shopId, call.body, deps.clock());
    const older = call.body.length - put.upserted;
    const answer: ProductsUpserted = { success: true, upserted: put.upserted, position: deps.positionToken(put.position) };
    if (older > 0) answer.olderIgnored = older;
    call.json(JSON.stringify(answer));
  };
}

export function getProduct(deps: HttpDeps): Handler<Principal> {
  return (call) => {
    const product = deps.catalog.get(call.principal.shopId, productIdParam(call.params[0]!));
    if (product === undefined) throw new AppError('not_found', 'no such product');
    call.json(productJson(product));
  };
}

export function deleteProduct(deps: HttpDeps): Handler<Principal> {
  return async (call) => {
    const [raw] = call.params;
    const position = await deps.catalog.remove(call.principal.shopId, productIdParam(raw!), deps.clock());
    if (position === undefined) throw new AppError('not_found', 'no such product');
    call.json(JSON.stringify({ success: true, deleted: raw!, position: deps.positionToken(position) } satisfies ProductDeleted));
  };
}
