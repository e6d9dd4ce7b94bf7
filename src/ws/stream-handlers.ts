// One handler per op of the stream protocol, each thin: the event ops call the same use cases as
// POST /api/events(/batch), subscribe parses its query like GET /api/recommendations. Event ops are
// answered after their durable commit; every other op at once.
import { batchEvents } from '../api/event.js';
import { AppError } from '../errors.js';
import { toAppError } from '../transport/exchange.js';
import { queryAs, type CustomerIdentity } from '../app/customer-identity.js';
import type { Lifecycle } from '../transport/lifecycle.js';
import type { PositionWaits } from '../app/position-waits.js';
import type { EventCaller, EventTracking } from '../app/track-events.js';
import { errorMessage, type ClientMessage, type Ref, type ServerMessage } from './protocol.js';
import { parseSubscriptionQuery } from './subscription-query.js';
import type { Subscriber, SubscriptionRegistry } from './subscriptions.js';

export interface StreamContext {
  events: EventTracking;
  identity: CustomerIdentity;
  registry: SubscriptionRegistry;
  /** Counts event ops awaiting their commit, so shutdown sends their acks before closing sockets. */
  lifecycle: Lifecycle;
  positions: PositionWaits;
  clock: () => number;
  maxInFlight: number;
}

export function handleMessage(ctx: StreamContext, conn: Subscriber, message: ClientMessage, binary: boolean): void {
  const ref = message.ref;
  try {
    switch (message.op) {
      case 'ping':
        conn.reply(ref === undefined ? { op: 'pong' } : { op: 'pong', ref }, binary);
        return;
      case 'event': {
        const { event } = message;
        afterCommit(ctx, conn, ref, binary, async () => {
          const ack = await ctx.events.track(event, caller(ctx, conn));
          return { op: 'ack', ...(ref === undefined ? {} : { ref }), eventId: ack.eventId, ...(ack.duplicate ? { duplicate: true } : {}), position: ack.position };
        });
        return;
      }
      case 'events': {
        const events = batchEvents({ events: message.events });
        afterCommit(ctx, conn, ref, binary, async () => {
          const outcome = await ctx.events.trackBatch(events, caller(ctx, conn));
          return { op: 'acks', ...(ref === undefined ? {} : { ref }), ...outcome };
        });
        return;
      }
      case 'subscribe': {
        const parsed = parseSubscriptionQuery(message.query);
        if (!parsed.ok) throw parsed.error;
        const query = parsed.query;
        const customerId = ctx.identity.customerId(conn.principal, query.customerId, { customerToken: query.customerToken }, ctx.clock());
        // A customer proven by a token is so until the token expires: then the subscription ends (StreamServer).
        const expiresAtS = customerId !== undefined && query.customerToken !== undefined ? tokenExpiry(query.customerToken) : undefined;
        const subscribe = () => {
          const { frame, sub } = ctx.registry.subscribe(conn, queryAs(query, customerId), binary, ref);
          if (expiresAtS !== undefined) conn.tokenExpiry.set(sub, { expiresAtS, binary });
          conn.send(frame, binary);
        };
        const after = message.query.after;
        if (typeof after !== 'string' || after === '') return subscribe();
        // Named a write's position: the first list waits (bounded) until this server applied it; later
        // pushes follow the models in any case.
        const waiting = ctx.positions.pending(conn.shopId, after, '/query/after');
        if (waiting === undefined) return subscribe();
        void waiting.then(() => {
          if (!conn.open) return;
          try {
            subscribe();
          } catch (error) {
            conn.reply(errorMessage(ref, toAppError(error)), binary);
          }
        });
        return;
      }
      case 'unsubscribe':
        if (!ctx.registry.unsubscribe(conn, message.sub)) throw new AppError('not_found', `no subscription "${message.sub}" on this connection`);
        return;
    }
  } catch (error) {
    conn.reply(errorMessage(ref, toAppError(error)), binary);
  }
}

/** The wait a refusal's Retry-After names, in ms (a new session over its bound), as rate-limit refusals carry theirs. */
function retryAfterMs(error: unknown): number | undefined {
  const seconds = error instanceof AppError ? error.headers?.['retry-after'] : undefined;
  return seconds === undefined ? undefined : Number(seconds) * 1000;
}

/** A customer token's expiry (its third field, Unix seconds); the identity has verified it. */
function tokenExpiry(token: string): number | undefined {
  const expires = Number(token.split('.')[2]);
  return Number.isSafeInteger(expires) ? expires : undefined;
}

/** The sender of this connection's events: its address is the one its upgrade was limited by (none: exempt). */
function caller(ctx: StreamContext, conn: Subscriber): EventCaller {
  return { principal: conn.principal, client: conn.limit?.client, now: ctx.clock() };
}

/** Runs an event op; its answer (ack, acks or error) is sent once the commit is durable. */
function afterCommit(ctx: StreamContext, conn: Subscriber, ref: Ref | undefined, binary: boolean, work: () => Promise<ServerMessage>): void {
  if (ctx.lifecycle.closing) throw new AppError('unavailable', 'the service is shutting down');
  if (conn.inFlight >= ctx.maxInFlight) {
    throw new AppError('rate_limited', `at most ${ctx.maxInFlight} event messages may await their acks on one connection`);
  }
  conn.inFlight++;
  ctx.lifecycle.begin();
  work()
    .catch((error: unknown) => errorMessage(ref, toAppError(error), retryAfterMs(error)))
    .then((answer) => conn.reply(answer, binary))
    .catch((error: unknown) => console.error('stream: could not send an ack', error))
    .finally(() => {
      conn.inFlight--;
      ctx.lifecycle.end();
    });
}
