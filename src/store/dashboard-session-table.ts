// Dashboard sessions in LMDB, so that every server process of the data dir knows every session
// (a sign-in on one, the next page from another). Kept by the SHA-256 of their token: the table
// holds nothing a cookie could be rebuilt from. A use moves lastUsed in LMDB at most once a minute.
import { createHash } from 'node:crypto';
import type { Databases } from './database.js';
import { commitDurably } from './durable-commit.js';
import type { DashboardSession } from './records.js';

/** Sessions kept at most: past it, adding one drops the least recently used. */
export const MAX_SESSIONS = 10_000;

/** lastUsed is written back when it moved at least this much (idle times are hours). */
const TOUCH_EVERY_MS = 60_000;

const idOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The dashboard's SessionTable (dashboard/sessions.ts) in LMDB. */
export class LmdbSessionTable {
  constructor(
    readonly dbs: Databases,
    /** Sessions idle this long are dropped when a new one is added. */
    readonly idleMs: number,
    /** Past this many, adding one drops the least recently used (as the in-memory table does). */
    readonly maxSessions = MAX_SESSIONS,
  ) {}

  get size(): number {
    return (this.dbs.dashboardSessions.getStats() as { entryCount: number }).entryCount;
  }

  get(token: string): DashboardSession | undefined {
    return this.dbs.dashboardSessions.get(idOf(token));
  }

  add(token: string, session: DashboardSession): Promise<void> {
    const table = this.dbs.dashboardSessions;
    return commitDurably(this.dbs, () => {
      // Sign-ins are rare (each needs a secret key): the scan for idle sessions rides along.
      const live: { key: string; lastUsed: number }[] = [];
      for (const { key, value } of table.getRange()) {
        if (session.lastUsed - value.lastUsed >= this.idleMs) table.remove(key);
        else live.push({ key, lastUsed: value.lastUsed });
      }
      live.sort((a, b) => a.lastUsed - b.lastUsed);
      for (const { key } of live.slice(0, Math.max(0, live.length + 1 - this.maxSessions))) table.remove(key);
      table.put(idOf(token), session);
    });
  }

  touched(token: string, session: DashboardSession): void {
    const stored = this.get(token);
    if (stored !== undefined && session.lastUsed - stored.lastUsed < TOUCH_EVERY_MS) return;
    void this.dbs.committer(this.dbs.root, () => {
      if (this.dbs.dashboardSessions.get(idOf(token)) !== undefined) this.dbs.dashboardSessions.put(idOf(token), session);
    }).committed.catch(() => {});
  }

  async delete(token: string): Promise<void> {
    await this.dbs.committer(this.dbs.root, () => this.dbs.dashboardSessions.remove(idOf(token))).committed.catch(() => {});
  }
}
