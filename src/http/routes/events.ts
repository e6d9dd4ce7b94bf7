// POST /api/events and POST /api/events/batch: acknowledged only after the durable commit.
import { parseBatchEnvelope } from '../../api/event.js';
import { AppError } from '../../errors.js';
import { trackBatch, trackEvent } from '../../app/track-events.js';
import { checkJsonContentType, parseJson, readBody } from '../body.js';
import { allowOrigin } from '../cors.js';
import type { HttpDeps } from '../deps.js';
import { newSessionGate } from '../../transport/new-sessions.js';
import type { Handler } from '../../transport/route.js';

export function postEvent(deps: HttpDeps): Handler {
  return async (exchange) => {
    allowOrigin(exchange);
    const client = deps.limits.clientOf(exchange.res, exchange.request);
    const principal = deps.limits.admit(client, exchange.request, deps.resolveKey, 'events:write');
    checkJsonContentType(exchange.request.contentType);
    const query = exchange.request.query;
    const input = parseJson(await readBody(exchange, deps.config.maxEventBodyBytes));
    const now = deps.clock();
    const ack = await trackEvent(deps.pipeline, principal.shopId, input, now, (claimed, customerToken) =>
      deps.identity.customerId(principal, claimed, { customerToken, query }, now), principal.kind, newSessionGate(deps.limits, deps.engines, client, principal),
    );
    exchange.json(JSON.stringify(ack));
  };
}

export function postEventBatch(deps: HttpDeps): Handler {
  return async (exchange) => {
    allowOrigin(exchange);
    const client = deps.limits.clientOf(exchange.res, exchange.request);
    const principal = deps.limits.admit(client, exchange.request, deps.resolveKey, 'events:write');
    checkJsonContentType(exchange.request.contentType);
    const query = exchange.request.query;
    const envelope = parseBatchEnvelope(parseJson(await readBody(exchange, deps.config.maxBatchBodyBytes)));
    if (!envelope.ok) throw new AppError(envelope.code, envelope.detail, [{ pointer: '/events', detail: envelope.detail }]);
    // A batch costs its events: the request took one token, the rest come now.
    deps.limits.chargeEvents(client, exchange.request, principal, envelope.events.length);
    const now = deps.clock();
    const outcome = await trackBatch(deps.pipeline, principal.shopId, envelope.events, now, (claimed, customerToken) =>
      deps.identity.customerId(principal, claimed, { customerToken, query }, now), principal.kind, newSessionGate(deps.limits, deps.engines, client, principal),
    );
    exchange.json(JSON.stringify(outcome));
  };
}
