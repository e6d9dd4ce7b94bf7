// POST /api/events and POST /api/events/batch: acknowledged only after the durable commit. The
// route pipeline has admitted the caller and read the body (a batch's envelope checked and its
// events charged to the rate limits); the events' own checks are the use case's, as on the stream.
import type { Principal } from '../../app/principal.js';
import type { HttpDeps } from '../deps.js';
import type { Call, Handler } from '../../transport/route.js';

/** The caller of an event route, as the use case takes it. */
function caller(deps: HttpDeps, call: Call<Principal, unknown>) {
  return { principal: call.principal, client: call.client, query: call.request.query, now: deps.clock() };
}

export function postEvent(deps: HttpDeps): Handler<Principal, unknown> {
  return async (call) => {
    const ack = await deps.events.track(call.body, caller(deps, call));
    call.json(JSON.stringify(ack));
  };
}

export function postEventBatch(deps: HttpDeps): Handler<Principal, readonly unknown[]> {
  return async (call) => {
    const outcome = await deps.events.trackBatch(call.body, caller(deps, call));
    call.json(JSON.stringify(outcome));
  };
}
