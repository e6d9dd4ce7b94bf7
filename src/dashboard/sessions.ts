// Dashboard sign-in sessions: a merchant types the shop's secret key once into the sign-in form; the
// server checks it and answers with an HttpOnly, SameSite=Strict cookie naming a random session, so
// the secret key never lives in page script or browser storage. Each session carries its own CSRF
// token, which the page echoes in a header on every request that changes state.
// Kept in memory only (a restart signs everyone out), bounded: past MAX_SESSIONS the least recently
// used goes, and a session unused for IDLE_MS ends.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export interface DashboardSession {
  /** The secret key signed in with, kept server side only: each use checks it is still valid (not revoked). */
  key: string;
  /** Echoed by the page in `x-csrf-token` on state-changing requests. */
  csrf: string;
  lastUsed: number;
}

export const MAX_SESSIONS = 10_000;
export const IDLE_MS = 12 * 60 * 60 * 1000;

/** A session token as the cookie carries it: 32 random bytes, base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const token = (): string => randomBytes(32).toString('base64url');

export class DashboardSessions {
  /** In least-recently-used order (Map keeps insertion order; a use re-inserts). */
  readonly #sessions = new Map<string, DashboardSession>();

  constructor(
    readonly maxSessions = MAX_SESSIONS,
    readonly idleMs = IDLE_MS,
  ) {}

  get size(): number {
    return this.#sessions.size;
  }

  /** A new session for the key (already checked); returns its token (the cookie's value) and the session. */
  open(key: string, now: number): { token: string; session: DashboardSession } {
    const id = token();
    const session: DashboardSession = { key, csrf: token(), lastUsed: now };
    this.#sessions.set(id, session);
    for (const [oldest] of this.#sessions) {
      if (this.#sessions.size <= this.maxSessions) break;
      this.#sessions.delete(oldest);
    }
    return { token: id, session };
  }

  /** The live session a cookie names, marked used; undefined for an unknown, malformed or idle one. */
  use(cookieToken: string | undefined, now: number): DashboardSession | undefined {
    if (cookieToken === undefined || !TOKEN_PATTERN.test(cookieToken)) return undefined;
    const session = this.#sessions.get(cookieToken);
    if (session === undefined) return undefined;
    this.#sessions.delete(cookieToken);
    if (now - session.lastUsed >= this.idleMs) return undefined;
    session.lastUsed = now;
    this.#sessions.set(cookieToken, session);
    return session;
  }

  close(cookieToken: string | undefined): void {
    if (cookieToken !== undefined) this.#sessions.delete(cookieToken);
  }
}

/** Whether the CSRF header matches the session's token (constant time). */
export function csrfMatches(session: DashboardSession, header: string | undefined): boolean {
  if (header === undefined || header.length !== session.csrf.length) return false;
  return timingSafeEqual(Buffer.from(header), Buffer.from(session.csrf));
}
