// The bound on new sessions: an event with the public key that names a sessionId the shop's engine
// holds no state for creates one (and evicts the least recently active session when the pool is
// full), so each is charged to the client's address and then the shop (RateLimits.takeNewSession).
// A secret key (a merchant's server) and clients the rate limits exempt are not bounded.
import type { SessionGate } from '../app/track-events.js';
import type { ShopEngines } from '../engine/shop-engines.js';
import type { Principal } from '../app/principal.js';
import type { RateLimits } from './rate-limits.js';

/**
 * The gate of one request's (or WebSocket operation's) events; undefined when none is bounded. Each
 * new sessionId is charged once per request. With several server processes, a session another
 * process created and this one has not yet applied is charged as new again (each process allows its share).
 */
export function newSessionGate(limits: RateLimits, engines: ShopEngines, client: string | undefined, principal: Principal): SessionGate | undefined {
  if (client === undefined || principal.kind !== 'public') return undefined;
  if (limits.newSessionsPerAddress === undefined && limits.newSessionsPerShop === undefined) return undefined;
  const shopId = principal.shopId;
  const engine = engines.get(shopId);
  let admitted: Set<string> | undefined;
  return (sessionId) => {
    if (admitted?.has(sessionId) || engine.holdsSession(sessionId)) return undefined;
    const refusal = limits.takeNewSession(client, shopId, limits.clock());
    if (refusal === undefined) (admitted ??= new Set()).add(sessionId);
    return refusal;
  };
}
