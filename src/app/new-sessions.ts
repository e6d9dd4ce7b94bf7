// The bound on new sessions: an event with the public key that names a sessionId the shop's engine
// holds no state for creates one (and evicts the least recently active session when the pool is
// full), so each is charged to the client's address and then the shop (RateLimits.takeNewSession).
// A secret key (a merchant's server) and clients the rate limits exempt are not bounded.
import type { ShopEngines } from '../engine/shop-engines.js';
import type { AppError } from '../errors.js';
import type { Principal } from './principal.js';

/**
 * Admits an event's session: undefined when it may be stored, else the refusal (429
 * too_many_new_sessions: the session is new and its client has created its share of them).
 */
export type SessionGate = (sessionId: string) => AppError | undefined;

/** Where new sessions are charged: the rate limits' buckets per client address and per shop (transport/rate-limits.ts). */
export interface NewSessionBudget {
  /** Whether any bound on new sessions is on. */
  readonly boundsNewSessions: boolean;
  /** Charges one new session of `client` (its rate-limit bucket) to its address, then its shop: the refusal, or undefined. */
  takeNewSession(client: string, shopId: string): AppError | undefined;
}

/**
 * The gate of one request's (or WebSocket operation's) events; undefined when none is bounded. Each
 * new sessionId is charged once per request. With several server processes, a session another
 * process created and this one has not yet applied is charged as new again (each process allows its share).
 */
export function newSessionGate(budget: NewSessionBudget, engines: ShopEngines, client: string | undefined, principal: Principal): SessionGate | undefined {
  if (client === undefined || principal.kind !== 'public' || !budget.boundsNewSessions) return undefined;
  const shopId = principal.shopId;
  const engine = engines.get(shopId);
  let admitted: Set<string> | undefined;
  return (sessionId) => {
    if (admitted?.has(sessionId) || engine.holdsSession(sessionId)) return undefined;
    const refusal = budget.takeNewSession(client, shopId);
    if (refusal === undefined) (admitted ??= new Set()).add(sessionId);
    return refusal;
  };
}
