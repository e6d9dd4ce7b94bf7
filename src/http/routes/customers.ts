// GET and DELETE /api/customers/{id} (secret key): a customer's data exported, or erased.
import { parseCustomerEventsQuery, parseCustomerId } from '../../api/customer-query.js';
import type { CustomerErased } from '../../api/responses.js';
import { AppError } from '../../errors.js';
import type { Principal } from '../../app/principal.js';
import type { HttpDeps } from '../deps.js';
import type { Handler } from '../../transport/route.js';

/** A customer's data is never kept by a cache between Pairwise and the merchant's server. */
const PRIVATE = { 'cache-control': 'private, no-store' } as const;

function customerIdParam(raw: string): string {
  const id = parseCustomerId(raw);
  if (id === undefined) throw new AppError('invalid_query', 'the path must name a customerId of 1 to 128 characters (percent-encoded)', [{ pointer: '/id', detail: 'not a customerId' }]);
  return id;
}

export function getCustomer(deps: HttpDeps): Handler<Principal> {
  return (call) => {
    const customerId = customerIdParam(call.params[0]!);
    const parsed = parseCustomerEventsQuery(call.request.query);
    if (!parsed.ok) throw parsed.error;
    call.json(JSON.stringify(deps.customers.export(call.principal.shopId, customerId, parsed.query.after, parsed.query.limit)), 200, PRIVATE);
  };
}

export function deleteCustomer(deps: HttpDeps): Handler<Principal> {
  return async (call) => {
    const customerId = customerIdParam(call.params[0]!);
    const { position, events } = await deps.customers.erase(call.principal.shopId, customerId, deps.clock());
    call.json(JSON.stringify({ success: true, erased: customerId, events, position: deps.positionToken(position) } satisfies CustomerErased));
  };
}
