// GET and DELETE /api/customers/{id} (secret key): a customer's data exported, or erased.
import { parseCustomerEventsQuery, parseCustomerId } from '../../api/customer-query.js';
import type { CustomerErased } from '../../api/responses.js';
import { AppError } from '../../errors.js';
import type { HttpDeps } from '../deps.js';
import { admit } from '../../transport/rate-limits.js';
import type { LegacyHandler as Handler } from '../route-declaration.js';

/** A customer's data is never kept by a cache between Pairwise and the merchant's server. */
const PRIVATE = { 'cache-control': 'private, no-store' } as const;

function customerIdParam(raw: string): string {
  const id = parseCustomerId(raw);
  if (id === undefined) throw new AppError('invalid_query', 'the path must name a customerId of 1 to 128 characters (percent-encoded)', [{ pointer: '/id', detail: 'not a customerId' }]);
  return id;
}

export function getCustomer(deps: HttpDeps): Handler {
  return (exchange, [raw]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const customerId = customerIdParam(raw!);
    const parsed = parseCustomerEventsQuery(exchange.request.query);
    if (!parsed.ok) throw parsed.error;
    exchange.json(JSON.stringify(deps.customers.export(shopId, customerId, parsed.query.after, parsed.query.limit)), 200, PRIVATE);
  };
}

export function deleteCustomer(deps: HttpDeps): Handler {
  return async (exchange, [raw]) => {
    const { shopId } = admit(exchange, deps, 'admin');
    const customerId = customerIdParam(raw!);
    const { position, events } = await deps.customers.erase(shopId, customerId, deps.clock());
    exchange.json(JSON.stringify({ success: true, erased: customerId, events, position: deps.pipeline.positionToken(position) } satisfies CustomerErased));
  };
}
