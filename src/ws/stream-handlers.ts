// One handler per op of the stream protocol, each thin: the event ops call the same use cases as
// POST /api/events(/batch), subscribe parses its query like GET /api/recommendations. Event ops are
// answered after their durable commit; every other op at once.
import { parseBatchEnvelope } from '../api/event.js';
import { AppError } from '../errors.js';
import { toAppError } from '../transport/exchange.js';
import { queryAs, type CustomerIdentity } from '../app/customer-identity.js';
import type { Lifecycle } from '../transport/lifecycle.js';
import type { EventPipeline } from '../ingest/event-pipeline.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import { newSessionGate } from '../transport/new-sessions.js';
import type { RateLimits } from '../transport/rate-limits.js';
import type { PositionWaits } from '../app/position-waits.js';
import { trackBatch, trackEvent, type CustomerCheck, type SessionGate } from '../app/track-events.js';
import type { Connection } from './connection.js';
import { errorMessage, type ClientMessage, type Ref, type ServerMessage } from './protocol.js';
import { parseSubscriptionQuery } from './subscription-query.js';
import type { SubscriptionRegistry } from './subscriptions.js';

export interface StreamContext {
  pipeline: EventPipeline;
  identity: CustomerIdentity;
  registry: SubscriptionRegistry;
  /** Counts event ops awaiting their commit, so shutdown sends their acks before closing sockets. */
  lifecycle: Lifecycle;
  positions: PositionWaits;
  clock: () => number;
  maxInFlight: number;
  /** The bound on new sessions (transport/new-sessions.ts). */
  limits: RateLimits;
  engines: ShopEngines;
}

export function handleMessage(ctx: StreamContext, conn: Connection, message: ClientMessage, binary: boolean): void {
  const ref = message.ref;
  try {
    switch (message.op) {
      case 'ping':
        conn.reply(ref === undefined ? { op: 'pong' } : { op: 'pong', ref }, binary);
        return;
      case 'event': {
        const { event } = message;
        afterCommit(ctx, conn, ref, binary, async () => {
          const now = ctx.clock();
          const ack = await trackEvent(ctx.pipeline, conn.shopId, event, now, customerCheck(ctx, conn, now), conn.principal.kind, sessionGate(ctx, conn));
          return { op: 'ack', ...(ref === undefined ? {} : { ref }), eventId: ack.eventId, ...(ack.duplicate ? { duplicate: true } : {}), position: ack.position };
        });
        return;
      }
      case 'events': {
        const envelope = parseBatchEnvelope({ events: message.events });
        if (!envelope.ok) throw new AppError(envelope.code, envelope.detail, [{ pointer: '/events', detail: envelope.detail }]);
        afterCommit(ctx, conn, ref, binary, async () => {
          const now = ctx.clock();
          const outcome = await trackBatch(ctx.pipeline, conn.shopId, envelope.events, now, customerCheck(ctx, conn, now), conn.principal.kind, sessionGate(ctx, conn));
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

/** How this connection's events may name a customer (see http/customer-identity.ts). */
function customerCheck(ctx: StreamContext, conn: Connection, now: number): CustomerCheck {
  return (claimed, customerToken) => ctx.identity.customerId(conn.principal, claimed, { customerToken }, now);
}

/** How this connection's events may create sessions: its address is the one its upgrade was limited by (none: exempt). */
function sessionGate(ctx: StreamContext, conn: Connection): SessionGate | undefined {
  return newSessionGate(ctx.limits, ctx.engines, conn.limit?.client, conn.principal);
}

/** Runs an event op; its answer (ack, acks or error) is sent once the commit is durable. */
function afterCommit(ctx: StreamContext, conn: Connection, ref: Ref | undefined, binary: boolean, work: () => Promise<ServerMessage>): void {
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
