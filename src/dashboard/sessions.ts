// Dashboard sign-in sessions: a merchant types the shop's secret key once into the sign-in form; the
// server checks it and answers with an HttpOnly, SameSite=Strict cookie naming a random session, so
// the secret key never lives in page script or browser storage. Each session carries its own CSRF
// token, which the page echoes in a header on every request that changes state. A session names
// its key by SHA-256 only (as keys are stored), and each use checks the key is still valid.
// Where sessions live is a SessionTable: in memory (one process), or in LMDB, so that every server
// process of a data dir knows every session (store/dashboard-session-table.ts). A session unused
// for IDLE_MS ends.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_SESSIONS } from '../store/dashboard-session-table.js';
import type { DashboardSession } from '../store/records.js';

export type { DashboardSession };

/** Sessions by token. */
export interface SessionTable {
  get(token: string): DashboardSession | undefined;
  /** Keeps a new session; resolves once every process using the table would find it. */
  add(token: string, session: DashboardSession): Promise<void>;
  /** The session was used (its lastUsed moved): the table may keep that lazily. */
  touched(token: string, session: DashboardSession): void;
  /** Resolves once every process using the table would no longer find it. */
  delete(token: string): Promise<void>;
  readonly size: number;
}

export const IDLE_MS = 12 * 60 * 60 * 1000;

/** A session token as the cookie carries it: 32 random bytes, base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const token = (): string => randomBytes(32).toString('base64url');

/** One process's sessions, at most `maxSessions`: past it the least recently used goes. */
export class MemorySessionTable implements SessionTable {
  /** In least-recently-used order (Map keeps insertion order; a use re-inserts). */
  readonly #sessions = new Map<string, DashboardSession>();

  constructor(readonly maxSessions = MAX_SESSIONS) {}

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): DashboardSession | undefined {
    return this.#sessions.get(id);
  }

  async add(id: string, session: DashboardSession): Promise<void> {
    this.#sessions.set(id, session);
    for (const [oldest] of this.#sessions) {
      if (this.#sessions.size <= this.maxSessions) break;
      this.#sessions.delete(oldest);
    }
  }

  touched(id: string, session: DashboardSession): void {
    this.#sessions.delete(id);
    this.#sessions.set(id, session);
  }

  async delete(id: string): Promise<void> {
    this.#sessions.delete(id);
  }
}

export class DashboardSessions {
  constructor(
    readonly table: SessionTable = new MemorySessionTable(),
    readonly idleMs = IDLE_MS,
  ) {}

  get size(): number {
    return this.table.size;
  }

  /**
   * A new session for the key (already checked): its token (the cookie's value), the session, and
   * `stored`, which resolves once the session is kept (answer the sign-in after it).
   */
  open(key: string, now: number): { token: string; session: DashboardSession; stored: Promise<void> } {
    const id = token();
    const session: DashboardSession = { keyHash: createHash('sha256').update(key).digest('hex'), csrf: token(), lastUsed: now };
    return { token: id, session, stored: this.table.add(id, session) };
  }

  /** The live session a cookie names, marked used; undefined for an unknown, malformed or idle one. */
  use(cookieToken: string | undefined, now: number): DashboardSession | undefined {
    if (cookieToken === undefined || !TOKEN_PATTERN.test(cookieToken)) return undefined;
    const session = this.table.get(cookieToken);
    if (session === undefined) return undefined;
    if (now - session.lastUsed >= this.idleMs) {
      void this.table.delete(cookieToken);
      return undefined;
    }
    const used = { ...session, lastUsed: now };
    this.table.touched(cookieToken, used);
    return used;
  }

  /** Ends the session; resolves once no process finds it any more. */
  async close(cookieToken: string | undefined): Promise<void> {
    if (cookieToken !== undefined) await this.table.delete(cookieToken);
  }
}

/** Whether the CSRF header matches the session's token (constant time). */
export function csrfMatches(session: DashboardSession, header: string | undefined): boolean {
  if (header === undefined || header.length !== session.csrf.length) return false;
  return timingSafeEqual(Buffer.from(header), Buffer.from(session.csrf));
}
